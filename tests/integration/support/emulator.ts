import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { StorageOptions } from '#src/lib/airtable/upsert.ts';
import { startEmulator } from '#scripts/airtable-emulator/emulator.ts';

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
