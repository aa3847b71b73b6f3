/**
 * Base id, endpoint and tokens for the launch-kit commands: from flags, else from the
 * environment. They are only ever held in memory: nothing here writes them anywhere.
 */
import { AIRTABLE_ENDPOINT_URL } from './airtable-api.ts';

export interface KitOptions {
  baseId?: string;
  endpointUrl: string;
  /** Token with schema.bases:read (check) or schema.bases:write (setup). */
  schemaToken?: string;
  /** The token the site's relay uses (AIRTABLE_API_KEY). */
  siteToken?: string;
}

const FLAGS: Readonly<Record<string, keyof KitOptions>> = {
  '--base': 'baseId',
  '--endpoint': 'endpointUrl',
  '--schema-token': 'schemaToken',
  '--site-token': 'siteToken',
};

/** Reads flags over environment variables; throws on an unknown flag or a flag without value. */
export function readKitOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): KitOptions {
  const options: KitOptions = { endpointUrl: env.AIRTABLE_ENDPOINT_URL || AIRTABLE_ENDPOINT_URL };
  if (env.AIRTABLE_BASE_ID) options.baseId = env.AIRTABLE_BASE_ID;
  if (env.AIRTABLE_SCHEMA_TOKEN) options.schemaToken = env.AIRTABLE_SCHEMA_TOKEN;
  if (env.AIRTABLE_API_KEY) options.siteToken = env.AIRTABLE_API_KEY;
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i] as string;
    const key = FLAGS[flag];
    const value = argv[i + 1];
    if (!key) throw new Error(`Unknown option ${flag}`);
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    options[key] = value;
    i += 1;
  }
  return options;
}
