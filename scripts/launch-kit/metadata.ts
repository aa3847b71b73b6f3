/**
 * Airtable's Metadata API, for the owner's `airtable:setup` and `airtable:check` only (airtable.ts):
 * the base's tables and their fields (schema.bases:read), a table or a field added
 * (schema.bases:write), through the server's client (its pacer, deadlines and errors).
 */
import type { FieldDefinition } from '#src/lib/airtable/schema.ts';
import type { AirtableClient } from '#src/server/airtable/client.ts';

/** A table and its fields as the Metadata API lists them. */
export interface RemoteTable {
  id: string;
  name: string;
  fields: { id: string; name: string; type: string }[];
}

/** The field as the Metadata API takes it on create: name, type and options only. */
function fieldForCreate(field: FieldDefinition): { name: string; type: string; options?: unknown } {
  return { name: field.name, type: field.type, ...('options' in field ? { options: field.options } : {}) };
}

/** The Metadata API of base `baseId`, through `client`. */
export function metadataApi(client: AirtableClient, baseId: string) {
  const tables = `meta/bases/${encodeURIComponent(baseId)}/tables`;
  return {
    listTables: async (deadline?: number) =>
      (await client.api<{ tables: RemoteTable[] }>('GET', tables, undefined, deadline)).tables,
    createTable: (name: string, fields: readonly FieldDefinition[], deadline?: number) =>
      client.api<RemoteTable>('POST', tables, { name, fields: fields.map(fieldForCreate) }, deadline),
    createField: (tableId: string, field: FieldDefinition, deadline?: number) =>
      client.api<RemoteTable['fields'][number]>(
        'POST',
        `${tables}/${encodeURIComponent(tableId)}/fields`,
        fieldForCreate(field),
        deadline,
      ),
  };
}
