import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { StorageOptions } from '#src/lib/airtable/upsert.ts';
import { siteBaseSchema, startEmulator } from '#scripts/airtable-emulator/emulator.ts';
import { main as privacy } from '#scripts/launch-kit/privacy.ts';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/**
 * Starts one emulator for the enclosing suite, on a free port with its rate limit off (tests
 * that want it switch it on), emptied before each test. Returns a getter for it.
 */
export function useEmulator(): () => Emulator {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, rateLimitPerSecond: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    emulator?.reset();
  });
  return () => {
    if (!emulator) throw new Error('The emulator is only available inside tests');
    return emulator;
  };
}

/** Storage options pointing at the emulator, with bounds short enough for a fast suite. */
export function storageOptions(emulator: Emulator, overrides: StorageOptions = {}): StorageOptions {
  return {
    answerBoundMs: 3_000,
    retry: { initialDelayMs: 20, maxDelayMs: 200 },
    ...overrides,
    config: {
      apiKey: emulator.apiKey,
      baseId: emulator.baseId,
      endpointUrl: emulator.url,
      ...overrides.config,
    },
  };
}

/** The server settings that point the owner's commands and the server at `emulator`. */
export const emulatorEnv = (emulator: Emulator) => ({
  AIRTABLE_API_KEY: emulator.apiKey,
  AIRTABLE_BASE_ID: emulator.baseId,
  AIRTABLE_ENDPOINT_URL: emulator.url,
});

/** The emails stored in `table`, sorted. */
export const storedEmails = (emulator: Emulator, table: string) =>
  emulator
    .records(table)
    .map((record) => record.fields.Email)
    .sort();

/** Runs `npm run privacy:<argv>` against `emulator` at `now`; resolves with its exit code and lines. */
export async function runPrivacyCommand(emulator: Emulator, now: number, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await privacy(argv, emulatorEnv(emulator), {
    now: () => now,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out, err };
}

/** An emulator whose `table` lacks `fields`: a base set up before they existed. Close it after. */
export function startEmulatorWithout(table: string, fields: readonly string[]): Promise<Emulator> {
  const missing = new Set(fields);
  return startEmulator({
    port: 0,
    rateLimitPerSecond: 0,
    schema: siteBaseSchema().map((entry) =>
      entry.name === table
        ? { ...entry, fields: entry.fields.filter((field) => !missing.has(field.name)) }
        : entry,
    ),
  });
}
