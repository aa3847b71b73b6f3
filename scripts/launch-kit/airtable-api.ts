/**
 * The few Airtable calls the owner's launch kit makes (Metadata API and records), over fetch,
 * with Airtable's error type kept so messages can say what to fix.
 */
import type { FieldDefinition } from '#src/lib/airtable/schema.ts';
import { createPacer } from '#src/server/pacer.ts';

export const AIRTABLE_ENDPOINT_URL = 'https://api.airtable.com';

/** Where and as whom to call Airtable. Tokens come from the environment or flags only. */
export interface AirtableAccess {
  endpointUrl: string;
  baseId: string;
  token: string;
}

/** A field as the Metadata API lists it. */
export interface RemoteField {
  id: string;
  name: string;
  type: string;
}

/** A table as the Metadata API lists it. */
export interface RemoteTable {
  id: string;
  name: string;
  fields: RemoteField[];
}

/** An answer other than 2xx, with Airtable's error type. */
export class AirtableApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }

  /** One line for the terminal: status, type and what it usually means. */
  explain(scope: string): string {
    if (this.status === 401) return `401 ${this.type}: the token is not valid`;
    if (this.status === 403) {
      return `403 ${this.type}: the token lacks ${scope}, or cannot see this base`;
    }
    return `${this.status} ${this.type}: ${this.message}`;
  }
}

// Airtable's limit is per base and counts every client, these commands included: one pacer for
// the process keeps them under it, and a 429 (someone else busy on the base) waits the penalty.
const pacer = createPacer();

async function call<T>(access: AirtableAccess, method: string, path: string, body?: unknown): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    await pacer.acquire();
    try {
      return await callOnce<T>(access, method, path, body);
    } catch (error) {
      if (!(error instanceof AirtableApiError) || error.status !== 429 || attempt >= 1) throw error;
      pacer.penalise();
      console.warn(`Airtable is rate limiting this base; waiting ${Math.round(pacer.closedFor() / 1000)} s…`);
    }
  }
}

async function callOnce<T>(access: AirtableAccess, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${access.endpointUrl.replace(/\/+$/, '')}${path}`, {
    method,
    headers: { authorization: `Bearer ${access.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const answer = json as
      | {
          error?: { type?: string; message?: string } | string;
          errors?: { error?: string; message?: string }[];
        }
      | undefined;
    // Airtable answers most errors as { error }, and rate limits as { errors: [{ error }] }.
    const error =
      answer?.error ??
      (answer?.errors?.[0] ? { type: answer.errors[0].error, message: answer.errors[0].message } : undefined);
    const type = typeof error === 'string' ? error : (error?.type ?? 'UNKNOWN');
    const message = typeof error === 'object' ? (error.message ?? text) : text;
    throw new AirtableApiError(response.status, type, message.slice(0, 300));
  }
  return json as T;
}

const tablesPath = (access: AirtableAccess) => `/v0/meta/bases/${encodeURIComponent(access.baseId)}/tables`;
const recordsPath = (access: AirtableAccess, table: string) =>
  `/v0/${encodeURIComponent(access.baseId)}/${encodeURIComponent(table)}`;

/** The field as the Metadata API takes it on create: name, type and options only. */
export function fieldForCreate(field: FieldDefinition): { name: string; type: string; options?: unknown } {
  return { name: field.name, type: field.type, ...('options' in field ? { options: field.options } : {}) };
}

/** GET …/meta/bases/{baseId}/tables (schema.bases:read). */
export async function listTables(access: AirtableAccess): Promise<RemoteTable[]> {
  return (await call<{ tables: RemoteTable[] }>(access, 'GET', tablesPath(access))).tables;
}

/** POST …/meta/bases/{baseId}/tables (schema.bases:write). */
export function createTable(access: AirtableAccess, name: string, fields: readonly FieldDefinition[]) {
  return call<RemoteTable>(access, 'POST', tablesPath(access), { name, fields: fields.map(fieldForCreate) });
}

/** POST …/meta/bases/{baseId}/tables/{tableId}/fields (schema.bases:write). */
export function createField(access: AirtableAccess, tableId: string, field: FieldDefinition) {
  return call<RemoteField>(access, 'POST', `${tablesPath(access)}/${tableId}/fields`, fieldForCreate(field));
}

type Cells = Record<string, unknown>;
interface RemoteRecord {
  id: string;
  fields: Cells;
}

/** The records calls the site's storage layer makes, for the check's probe. */
export const records = {
  find: (access: AirtableAccess, table: string, formula: string) =>
    call<{ records: RemoteRecord[] }>(
      access,
      'GET',
      `${recordsPath(access, table)}?maxRecords=1&filterByFormula=${encodeURIComponent(formula)}`,
    ),
  create: (access: AirtableAccess, table: string, fields: Cells) =>
    call<RemoteRecord>(access, 'POST', recordsPath(access, table), { fields, typecast: true }),
  update: (access: AirtableAccess, table: string, id: string, fields: Cells) =>
    call<RemoteRecord>(access, 'PATCH', `${recordsPath(access, table)}/${id}`, { fields, typecast: true }),
  remove: (access: AirtableAccess, table: string, id: string) =>
    call<{ id: string; deleted: boolean }>(access, 'DELETE', `${recordsPath(access, table)}/${id}`),
};
