// @vitest-environment node
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_ENV_PREFIXES, launchChecklist } from '#scripts/launch-kit/checklist.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const READY_ENV = {
  VITE_SITE_URL: 'https://www.example.org',
  SITE_URL: 'https://www.example.org',
  VITE_GA_MEASUREMENT_ID: 'G-ABC123',
  AIRTABLE_API_KEY: 'patExample',
  AIRTABLE_BASE_ID: 'appExample',
  LINK_SECRET: 'x'.repeat(48),
  MAIL_FROM: 'Podling <hello@example.org>',
  SCHOOLS_TEAM_EMAIL: 'schools@example.org',
};

/** `npm run launch-check` in `cwd`, with only these build variables (no .env files there). */
function runLaunchCheck(cwd: string, env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !BUILD_ENV_PREFIXES.some((prefix) => name.startsWith(prefix)),
    ),
  );
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/launch-kit/checklist.ts'], {
    cwd,
    env: { ...clean, ...env },
    encoding: 'utf8',
  });
}

describe('npm run launch-check', () => {
  it('lists every placeholder, the missing settings and the legal review, and fails', () => {
    const { ok, lines } = launchChecklist({});
    expect(ok).toBe(false);
    const text = lines.join('\n');
    for (const item of [
      'App Store',
      'Google Play',
      "blog's URL",
      'newsletter',
      'LinkedIn',
      'Facebook',
      'Instagram',
      'demo video',
      'booking page',
      'VITE_SITE_URL',
      'VITE_GA_MEASUREMENT_ID',
      'AIRTABLE_API_KEY',
      'legal texts not reviewed',
      'LINK_SECRET is not set',
      'MAIL_FROM is not set',
      'SCHOOLS_TEAM_EMAIL is not set',
      'SPF, DKIM and DMARC',
    ]) {
      expect(text).toContain(item);
    }
  });

  it('names an ADMIN_TOKEN too short for the Worker, and passes a long one', () => {
    const weak = launchChecklist({ ...READY_ENV, ADMIN_TOKEN: 'hunter2' });
    expect(weak.lines.join('\n')).toMatch(/✗ ADMIN_TOKEN is 7 characters; use at least 32/);
    const strong = launchChecklist({ ...READY_ENV, ADMIN_TOKEN: 'a'.repeat(64) });
    expect(strong.lines.join('\n')).toContain('✓ ADMIN_TOKEN: 64 characters');
  });

  it('names a short LINK_SECRET, a bad sender, and a local outbox left set on a deploy', () => {
    const weak = launchChecklist({
      ...READY_ENV,
      LINK_SECRET: 'short',
      MAIL_FROM: 'not an address',
    }).lines.join('\n');
    expect(weak).toContain('✗ LINK_SECRET is 5 characters; it needs at least 32');
    expect(weak).toContain('✗ MAIL_FROM is not an address');
    expect(
      launchChecklist({ ...READY_ENV, MAIL_OUTBOX_URL: 'http://127.0.0.1:1/__emulator/outbox' }).lines,
    ).toContainEqual(expect.stringMatching(/^✗ MAIL_OUTBOX_URL is set/));
    const ready = launchChecklist(READY_ENV);
    expect(ready.lines.join('\n')).toContain('✓ mail: the Worker sends through its send_email binding');
    expect(ready.lines).toContainEqual(
      expect.stringMatching(/^! DNS for example\.org: publish SPF, DKIM and DMARC/),
    );
    expect(ready.lines.filter((line) => line.startsWith('✗') && /MAIL|LINK|SCHOOLS/.test(line))).toEqual([]);
  });

  it('fails without the Worker’s SITE_URL, or with one that is not the site’s https address', () => {
    const withoutSite = Object.fromEntries(Object.entries(READY_ENV).filter(([name]) => name !== 'SITE_URL'));
    const lines = (env: Record<string, string>) => launchChecklist(env, os.tmpdir()).lines;
    expect(lines(withoutSite)).toContainEqual(expect.stringMatching(/^✗ SITE_URL is not set/));
    expect(lines({ ...READY_ENV, SITE_URL: 'https://evil.example' })).toContainEqual(
      expect.stringMatching(
        /^✗ SITE_URL is https:\/\/evil\.example: set it to the site's own https address, https:\/\/www\.example\.org/,
      ),
    );
    expect(lines(READY_ENV)).toContainEqual(
      expect.stringMatching(/^✓ SITE_URL: https:\/\/www\.example\.org/),
    );
  });

  it('reminds the owner to send the newsletter to the confirmed export only', () => {
    const { lines } = launchChecklist(READY_ENV);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^! newsletter: send only to confirmed addresses; .*`npm run waitlist:export > confirmed\.csv`/,
      ),
    );
  });

  it('warns about direct mode without failing on it', () => {
    const { lines } = launchChecklist({
      ...READY_ENV,
      VITE_AIRTABLE_API_KEY: 'patX',
      VITE_AIRTABLE_BASE_ID: 'appX',
    });
    expect(lines).toContainEqual(expect.stringMatching(/^! storage: direct mode/));
  });

  it('exits 0 in a copy of the repository with every placeholder replaced', { timeout: 60_000 }, () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'launch-check-'));
    for (const dir of ['src', 'scripts'])
      fs.cpSync(path.join(ROOT, dir), path.join(copy, dir), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
    expect(runLaunchCheck(copy, READY_ENV).status).toBe(1);

    // What the owner does: put the real value in place of each marked stand-in, record the review.
    const site = path.join(copy, 'src/config/site.ts');
    const literal = String.raw`('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\x60(?:[^\x60\\]|\\.)*\x60)`;
    const marked = new RegExp(String.raw`placeholder\(\s*${literal},\s*${literal},?\s*\)`, 'g');
    const source = fs.readFileSync(site, 'utf8');
    expect(source.match(marked)?.length).toBeGreaterThan(5);
    fs.writeFileSync(
      site,
      source.replace(marked, (_whole, value: string) =>
        value === "'PLACEHOLDER'" ? "'abcDEF12345'" : value,
      ),
    );
    const review = path.join(copy, 'src/content/legal/review.ts');
    fs.writeFileSync(
      review,
      fs
        .readFileSync(review, 'utf8')
        .replace("status: 'draft',", "status: 'reviewed',")
        .replace("reviewedBy: ''", "reviewedBy: 'A. Solicitor'")
        .replace("reviewedOn: ''", "reviewedOn: '2025-07-01'"),
    );

    const result = runLaunchCheck(copy, READY_ENV);
    expect(result.stdout).toContain('every item is real');
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });
});
