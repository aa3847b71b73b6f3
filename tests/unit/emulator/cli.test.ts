// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseEmulatorArgs } from '#scripts/airtable-emulator/cli.ts';

describe('emulator command line', () => {
  it('reads its flags, with the default port and data file', () => {
    expect(parseEmulatorArgs([])).toMatchObject({ port: 8787, dataFile: '.data/airtable.json' });
    const options = parseEmulatorArgs(['--port', '0', '--no-data', '--empty-base', '--rate-limit', '2']);
    expect(options).toEqual({ port: 0, schema: 'empty', rateLimitPerSecond: 2 });
    expect(parseEmulatorArgs(['--help'])).toBe('help');
  });

  it('refuses unknown flags, missing values and negative numbers', () => {
    expect(() => parseEmulatorArgs(['--nope'])).toThrow('Unknown option --nope');
    expect(() => parseEmulatorArgs(['--data'])).toThrow('--data needs a value');
    expect(() => parseEmulatorArgs(['--latency', '-1'])).toThrow('--latency needs a number');
  });
});
