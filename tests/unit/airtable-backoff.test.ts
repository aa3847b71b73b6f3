import { describe, expect, it } from 'vitest';
import { STORAGE_RETRY_DEFAULTS, backoffDelayMs } from '#src/lib/airtable/upsert.ts';

describe('backoffDelayMs', () => {
  it('doubles from the initial delay up to the cap, with jitter in the upper half of each step', () => {
    const retry = STORAGE_RETRY_DEFAULTS;
    expect(backoffDelayMs(0, retry, () => 0)).toBe(500);
    expect(backoffDelayMs(0, retry, () => 0.999_999)).toBeCloseTo(1000, 0);
    expect(backoffDelayMs(2, retry, () => 0)).toBe(2000);
    expect(backoffDelayMs(10, retry, () => 0.5)).toBe(6000);
    expect(backoffDelayMs(50, retry, () => 1)).toBe(retry.maxDelayMs);
  });
});
