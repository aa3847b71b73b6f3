// @vitest-environment node
/** `npm run launch-check` says whether the Worker's retention trigger is configured. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchChecklist, retentionTriggerLine } from '#scripts/launch-kit/checklist.ts';
import { cronTriggersOf, isDaily, stripJsonc } from '#scripts/launch-kit/privacy-trigger.ts';
import { TEAM_DIGEST_CRON } from '#src/server/mail/team-inbox.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function rootWith(wrangler: string | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retention-trigger-'));
  if (wrangler !== null) fs.writeFileSync(path.join(dir, 'wrangler.jsonc'), wrangler);
  return dir;
}

describe('the retention trigger in npm run launch-check', () => {
  it('passes on this repository’s wrangler.jsonc: a daily Cron Trigger (and the team digest’s own)', () => {
    expect(cronTriggersOf(path.join(ROOT, 'wrangler.jsonc'))).toEqual([expect.any(String), TEAM_DIGEST_CRON]);
    const { lines } = launchChecklist({}, ROOT);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^✓ retention: the Worker's Cron Trigger applies the 24-month retention \(\d+ \d+ \* \* \*, daily\)/,
      ),
    );
  });

  it('fails when wrangler.jsonc has no Cron Trigger, and says what to add', () => {
    const [passed, line] = retentionTriggerLine(
      rootWith('{ "name": "x", // no triggers\n "triggers": { "crons": [] }, }'),
    );
    expect(passed).toBe(false);
    expect(line).toMatch(/^✗ retention: wrangler.jsonc has no Cron Trigger/);
    const checklist = launchChecklist({}, rootWith('{ "name": "x" }'));
    expect(checklist.lines).toContainEqual(expect.stringMatching(/^✗ retention/));
  });

  it('warns, without failing, when there is no Worker deploy or its trigger is not daily', () => {
    expect(retentionTriggerLine(rootWith(null))).toEqual([
      true,
      expect.stringMatching(/^! retention: no wrangler.jsonc/),
    ]);
    expect(retentionTriggerLine(rootWith('{"triggers":{"crons":["0 4 * * 1"]}}'))).toEqual([
      true,
      expect.stringMatching(/^! retention: .*0 4 \* \* 1; not daily/),
    ]);
  });

  it('reads JSONC: comments and trailing commas, never inside strings', () => {
    const text = '{\n // a comment\n "a": "http://x/*y*/", /* block */ "b": [1, 2,],\n}';
    expect(JSON.parse(stripJsonc(text))).toEqual({ a: 'http://x/*y*/', b: [1, 2] });
    expect(isDaily('17 3 * * *')).toBe(true);
    expect(isDaily('*/30 * * * *')).toBe(true);
    expect(isDaily('0 3 1 * *')).toBe(false);
  });
});
