/**
 * Base id, endpoint and tokens for the launch-kit commands: from flags, else from the
 * environment. They are only ever held in memory: nothing here writes them anywhere.
 */
import { parseArgs } from 'node:util';
import { AIRTABLE_DEFAULT_ENDPOINT } from '#src/config/constants.ts';
import {
  type AirtableAccess,
  type AirtableClient,
  createAirtableClient,
  createPacer,
  type ListQuery,
  type Pacer,
  type StoredRecord,
} from '#src/server/airtable-client.ts';
import { DEAD_LETTERS_PATH } from '#src/server/queues.ts';

/**
 * Reads flags over environment variables; throws on an unknown flag or a flag without value.
 * `schemaToken` has schema.bases:read (check) or schema.bases:write (setup); `siteToken` is the
 * one the site's relay uses (AIRTABLE_API_KEY).
 */
export function readKitOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>>) {
  const string = { type: 'string' } as const;
  const { values } = parseArgs({
    args: [...argv],
    options: { base: string, endpoint: string, 'schema-token': string, 'site-token': string },
  });
  const baseId = values.base ?? env.AIRTABLE_BASE_ID;
  const schemaToken = values['schema-token'] ?? env.AIRTABLE_SCHEMA_TOKEN;
  const siteToken = values['site-token'] ?? env.AIRTABLE_API_KEY;
  return {
    endpointUrl: values.endpoint ?? (env.AIRTABLE_ENDPOINT_URL || AIRTABLE_DEFAULT_ENDPOINT),
    ...(baseId ? { baseId } : {}),
    ...(schemaToken ? { schemaToken } : {}),
    ...(siteToken ? { siteToken } : {}),
  };
}

/** Options of a command that needs the base id and a schema token. */
export type SchemaAccessOptions = ReturnType<typeof readKitOptions> & { baseId: string; schemaToken: string };

/**
 * Reads the options of a command that needs the base id and a schema token with `scope`; on a
 * bad flag or a missing value it prints why and the usage, and returns null (exit code 2).
 */
export function readSchemaAccess(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  usage: string,
  scope: string,
): SchemaAccessOptions | null {
  let options;
  try {
    options = readKitOptions(argv, env);
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return null;
  }
  const { baseId, schemaToken } = options;
  if (!baseId || !schemaToken) {
    console.error(
      `Needs the base id (AIRTABLE_BASE_ID) and a token with ${scope} (AIRTABLE_SCHEMA_TOKEN).\n${usage}`,
    );
    return null;
  }
  return { ...options, baseId, schemaToken };
}

// Airtable's limit is per base and counts every client, these commands included: one pacer for
// the process keeps them under it, and a 429 (someone else busy on the base) waits the penalty.
const processPacer = createPacer();

/**
 * The server's one Airtable client as the commands use it: paced (by `pacer`, else the
 * process's), each request bounded by the spec's 300 s, and tried once more after a transient
 * failure, saying so when Airtable is rate limiting the base.
 */
export function kitClient(access: AirtableAccess, pacer: Pacer = processPacer): AirtableClient {
  return createAirtableClient(access, {
    pacer,
    attempts: 2,
    onRetry: (error, shut) => {
      if (error.status === 429)
        console.warn(
          `Airtable is rate limiting this base; waiting ${Math.round(shut.closedFor() / 1000)} s…`,
        );
    },
  });
}

/** Every record a list query finds, page by page (Airtable's pages of 100 and its offset). */
export async function listAll(
  client: AirtableClient,
  table: string,
  query: ListQuery,
): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  let offset: string | undefined;
  do {
    const page = await client.listPage(table, { ...query, ...(offset ? { offset } : {}) });
    records.push(...page.records);
    offset = page.offset;
  } while (offset);
  return records;
}

/** A dead letter as the endpoint lists it. */
export interface ListedLetter {
  key: string;
  table: string;
  email: string;
  reason: string;
  failedAt: string;
}

/**
 * Calls the Worker's dead-letter admin endpoint at the site's origin with its ADMIN_TOKEN (`path`
 * after DEAD_LETTERS_PATH; a POST when `body` is given); throws with a sentence on any refusal.
 */
export async function deadLetterAdmin<T>(
  site: { url: string; token: string },
  path = '',
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${site.url.replace(/\/+$/, '')}${DEAD_LETTERS_PATH}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${site.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 401) throw new Error('the site refused the token: check ADMIN_TOKEN');
  if (response.status === 404)
    throw new Error(
      'no dead-letter endpoint there (the Worker needs ADMIN_TOKEN, a DEAD_LETTERS namespace and the queue)',
    );
  if (!response.ok) throw new Error(`the site answered ${response.status}`);
  return (await response.json()) as T;
}
