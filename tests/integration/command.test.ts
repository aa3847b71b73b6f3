// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isCommand } from '#scripts/command.ts';

const MODULE = path.resolve(import.meta.dirname, '../../scripts/launch-kit/privacy.ts');
const MODULE_URL = pathToFileURL(MODULE).href;

describe('a command module runs its main only when Node was started with it', () => {
  it('is the command when Node was started with that file, by any path to it', () => {
    expect(isCommand(MODULE_URL, MODULE)).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'command-'));
    const link = path.join(dir, 'privacy');
    fs.symlinkSync(MODULE, link);
    expect(isCommand(MODULE_URL, link)).toBe(true);
  });

  it('is not when a test or another command imports it', () => {
    expect(
      isCommand(MODULE_URL, path.resolve(import.meta.dirname, '../../scripts/launch-kit/dead-letters.ts')),
    ).toBe(false);
    expect(isCommand(MODULE_URL, undefined)).toBe(false);
    expect(isCommand(MODULE_URL, '/no/such/file.ts')).toBe(false);
  });
});
