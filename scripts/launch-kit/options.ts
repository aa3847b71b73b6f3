/** The launch-kit commands' base id, endpoint and tokens (flags over environment), held in memory only. */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { type AirtableClient, AirtableError, createAirtableClient } from '#src/server/airtable/client.ts';
import { airtableAccess, type AirtableAccess } from '#src/server/settings.ts';
import { createPacer, type Pacer, RATE_WINDOW_MS } from '#src/server/airtable/pacer.ts';
import { DEAD_LETTERS_PATH } from '#src/server/queues/dead-letter-admin.ts';

type Env = Readonly<Record<string, string | undefined>>;

const string = { type: 'string' } as const;

/**
 * A command's flags over the environment: the kit's four and its `extra` ones (`siteToken` is the
 * relay's AIRTABLE_API_KEY). On a bad flag or an unasked argument, prints why and the usage: null.
 */
export function readKitOptions(
  argv: readonly string[],
  env: Env,
  usage: string,
  {
    extra = {} as ParseArgsOptionsConfig,
    positionals = false,
    err = (line: string) => console.error(line),
  } = {},
) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: positionals,
      options: { base: string, endpoint: string, 'schema-token': string, 'site-token': string, ...extra },
    });
  } catch (error) {
    err(`${(error as Error).message}\n${usage}`);
    return null;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const flag = (name: string) => values[name] as string | undefined;
  const { endpointUrl, baseId, token } = airtableAccess({
    AIRTABLE_API_KEY: flag('site-token') ?? env.AIRTABLE_API_KEY,
    AIRTABLE_BASE_ID: flag('base') ?? env.AIRTABLE_BASE_ID,
    AIRTABLE_ENDPOINT_URL: flag('endpoint') ?? env.AIRTABLE_ENDPOINT_URL,
  });
  const schemaToken = (flag('schema-token') ?? env.AIRTABLE_SCHEMA_TOKEN)?.trim() ?? '';
  return { endpointUrl, baseId, schemaToken, siteToken: token, values, positionals: parsed.positionals };
}

export type KitOptions = NonNullable<ReturnType<typeof readKitOptions>>;

// Airtable's limit is per base and counts every client, these commands included: one pacer for
// the process keeps them under it, and a 429 (someone else busy on the base) waits the penalty.
const processPacer = createPacer();

/** The server's Airtable client, paced, tried once more after a transient failure (saying so on a 429). */
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

/**
 * A client with the site's token (privacy, waitlist export), or null after saying what is missing.
 * Its pacer starts shut for one window: the command just before (or the site) may have used the allowance.
 */
export function siteTokenClient(options: KitOptions, usage: string, err: (line: string) => void) {
  const { endpointUrl, baseId, siteToken } = options;
  if (siteToken && baseId)
    return kitClient(
      { endpointUrl, baseId, token: siteToken },
      createPacer({ startClosedForMs: RATE_WINDOW_MS }),
    );
  err(`Needs the site's token (AIRTABLE_API_KEY) and the base id (AIRTABLE_BASE_ID).\n${usage}`);
  return null;
}

export const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** How many requests a command made: "(3 requests to Airtable)". */
export const requestCount = (client: AirtableClient) =>
  `(${plural(client.requestsSent(), 'request')} to Airtable)`;

export function failure(error: unknown, client: AirtableClient): string {
  if (error instanceof AirtableError)
    return `Airtable answered ${error.status || 'nothing'} ${error.type}: ${error.message} ${requestCount(client)}`;
  return `Failed: ${error instanceof Error ? error.message : String(error)}`;
}

export type ListedLetter = Record<'key' | 'table' | 'email' | 'reason' | 'failedAt', string>;

/** The Worker's dead-letter endpoint (`path` after it; POST with `body`); throws a sentence if refused. */
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
