// @vitest-environment node
/**
 * A form is data, proven by the owner's own path (issue 55). A copy of the project (the files git
 * lists, node_modules linked) gets a partners form as the patch support/partners-form.patch: the
 * changes docs/changing.md's "Add a form" lists, and nothing under the server, the base's code,
 * the emulator or the launch kit. Then the owner's commands, run in the copy: the type check, the
 * emulator with an empty base, `airtable:setup` and `airtable:check`, the Worker in workerd
 * (wrangler dev, as the worker-*.test.ts files run it), a sign-up on the partners form and its
 * own team's notice (its own address setting, its own words), `submissions`, `privacy:export`
 * and `privacy:erase`. Nothing is registered, aliased or mocked.
 *
 * To change the form: apply the patch to a checkout, edit, and write `git diff` back to the patch
 * (new files `git add -N` first).
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_ADMIN_PREFIX } from '#scripts/airtable-emulator/admin.ts';
import { startWorker, type RunningWorker } from '#scripts/loadtest/worker-process.ts';
import { enhancedPost } from './support/door.ts';
import { MAIL_WAIT } from './support/worker.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PATCH = path.join(import.meta.dirname, 'support/partners-form.patch');
/** What a form may not need to change: the code that follows the forms' list by itself. */
const FOLLOWS_THE_LIST = [
  'src/server/',
  'src/lib/airtable/',
  'scripts/airtable-emulator/',
  'scripts/launch-kit/',
];
/** The tools' caches in node_modules: the copy keeps its own, so nothing it builds lands in this checkout. */
const OWN_CACHES = new Set(['.cache', '.tmp', '.vite', '.vite-temp', '.vitest-cache']);
const TEAMS = {
  SCHOOLS_TEAM_EMAIL: 'schools-team@example.org',
  PARTNERS_TEAM_EMAIL: 'partners-team@example.org',
};

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

/** The files the patch changes, as `git apply` reads it. */
const patchFiles = () =>
  git('apply', '--numstat', PATCH)
    .trim()
    .split('\n')
    .map((line) => line.split('\t')[2] ?? '');

/** The files docs/changing.md's "Add a form" steps name (`<name>` read as the form's, partners). */
async function filesChangingMdLists(): Promise<string[]> {
  const doc = await readFile(path.join(ROOT, 'docs/changing.md'), 'utf8');
  const section = doc.split('\n## Add a form\n')[1]?.split('\n## ')[0] ?? '';
  // The numbered steps, up to the table of what a miss does.
  const list = section.slice(section.search(/^1\. /m), section.search(/^\| missed/m));
  return [...list.matchAll(/`((?:src|tests|docs|scripts)\/[^`\s]*\.[a-z]+)`/g)].map((match) =>
    (match[1] ?? '').replaceAll('<name>', 'partners'),
  );
}

/** A copy of the checkout's files (tracked and new, as git lists them) with node_modules linked. */
async function copyProject(): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), 'podling-owner-'));
  const files = git('ls-files', '-z', '--cached', '--others', '--exclude-standard')
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    await mkdir(path.dirname(path.join(copy, file)), { recursive: true });
    // A file deleted but not yet committed is listed and absent.
    await copyFile(path.join(ROOT, file), path.join(copy, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await mkdir(path.join(copy, 'node_modules'));
  for (const entry of await readdir(path.join(ROOT, 'node_modules')))
    if (!OWN_CACHES.has(entry))
      await symlink(path.join(ROOT, 'node_modules', entry), path.join(copy, 'node_modules', entry));
  return copy;
}

describe('an owner adds a partners form as docs/changing.md says', () => {
  let copy = '';
  let emulator: { url: string; key: string; base: string; stop: () => Promise<void> } | undefined;
  let worker: RunningWorker | undefined;
  const email = `partner.${Date.now().toString(36)}@example.org`;

  /** One of the owner's commands in the copy, as a shell runs it there: its exit code and output. */
  async function run(command: string, args: string[], env: Record<string, string> = {}) {
    const child = spawn(command, args, { cwd: copy, env: ownerEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let [out, all] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (all += chunk));
    const [code] = (await once(child, 'close')) as [number | null];
    // out: what it printed (stdout); all: with its messages (stderr) too.
    return { code, out, all };
  }
  const ownerEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({
    ...process.env,
    NO_COLOR: '1',
    PATH: `${path.join(copy, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    ...env,
  });
  const kitEnv = () => ({
    AIRTABLE_ENDPOINT_URL: emulator?.url ?? '',
    AIRTABLE_BASE_ID: emulator?.base ?? '',
    AIRTABLE_SCHEMA_TOKEN: emulator?.key ?? '',
    AIRTABLE_API_KEY: emulator?.key ?? '',
  });
  const npmRun = (script: string, args: string[] = []) =>
    run('npm', ['run', '-s', script, '--', ...args], kitEnv());
  const stored = async (table: string) => {
    const response = await fetch(`${emulator?.url}${EMULATOR_ADMIN_PREFIX}/records`);
    return ((await response.json()) as { tables: Record<string, { fields: Record<string, unknown> }[]> })
      .tables[table];
  };

  /** `npm run emulator` in the copy, with an empty base, on a port of its own. */
  async function startEmulator() {
    const args = ['run', 'emulator', '--', '--port', '0', '--no-data', '--empty-base'];
    const child = spawn('npm', args, {
      cwd: copy,
      env: ownerEnv({}),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      process.kill(-(child.pid ?? 0), 'SIGTERM');
      await exited;
    };
    let out = '';
    child.stderr.on('data', (chunk: Buffer) => (out = (out + chunk.toString()).slice(-4000)));
    for await (const chunk of child.stdout) {
      out += String(chunk);
      const started = /Airtable emulator on (\S+) \(key ([^,]+), base ([^,)]+)/.exec(out);
      if (started) {
        child.stdout.resume();
        return { url: started[1] ?? '', key: started[2] ?? '', base: started[3] ?? '', stop };
      }
    }
    throw new Error(`npm run emulator ended:\n${out}`);
  }

  beforeAll(async () => {
    copy = await copyProject();
    try {
      execFileSync('git', ['apply', PATCH], { cwd: copy, stdio: 'pipe' });
    } catch (error) {
      const said = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
      throw new Error(
        `The partners patch no longer applies; re-make it as this file's header says:\n${said}`,
      );
    }
    emulator = await startEmulator();
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await emulator?.stop();
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  it('the patch changes exactly the files docs/changing.md lists, none of them in what follows the forms', async () => {
    const files = patchFiles();
    expect(files.filter((file) => FOLLOWS_THE_LIST.some((folder) => file.startsWith(folder)))).toEqual([]);
    expect([...new Set(await filesChangingMdLists())].sort()).toEqual([...files].sort());
  });

  it('type-checks (npx tsc -b)', async () => {
    const checked = await run('npx', ['tsc', '-b']);
    expect(checked.all).toBe('');
    expect(checked.code).toBe(0);
  }, 120_000);

  it('airtable:setup makes its table in an empty base and airtable:check finds the base ready', async () => {
    const setup = await npmRun('airtable:setup');
    expect(setup.out).toContain("Created table 'Partners' with 'Email', 'Organisation', 'Message'");
    expect(setup.code).toBe(0);
    const check = await npmRun('airtable:check');
    expect(check.out).toContain('Partners: present\n  Email: present (email)\n  Organisation: present');
    expect(check.out).toContain('OK: the base is ready for the site.');
    expect(check.code).toBe(0);
  }, 60_000);

  it('launch-check asks for its team’s address setting', async () => {
    const { all } = await run('npm', ['run', '-s', 'launch-check']);
    expect(all).toContain('✗ PARTNERS_TEAM_EMAIL is not set: nobody would hear of partners requests');
  }, 60_000);

  it('the Worker stores a sign-up once and tells its own team, at its own address, in its own words', async () => {
    const access = kitEnv();
    worker = await startWorker({
      root: copy,
      vars: {
        AIRTABLE_API_KEY: access.AIRTABLE_API_KEY,
        AIRTABLE_BASE_ID: access.AIRTABLE_BASE_ID,
        AIRTABLE_ENDPOINT_URL: access.AIRTABLE_ENDPOINT_URL,
        ...TEAMS,
      },
    });
    const values = { email, organisation: 'Hill Radio', message: 'Shall we make a show together?' };
    const answer = await enhancedPost(`${worker.url}/api/forms/partners`, values, {
      'cf-connecting-ip': '198.51.100.7',
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ success: true });
    await expect.poll(async () => (await stored('Partners'))?.length, MAIL_WAIT).toBe(1);
    expect((await stored('Partners'))?.[0]?.fields).toMatchObject({
      Email: email,
      'Email Key': email,
      Organisation: 'Hill Radio',
      Message: 'Shall we make a show together?',
    });
    const toTeam = () => worker?.sentEmails().filter((sent) => sent.to === TEAMS.PARTNERS_TEAM_EMAIL) ?? [];
    await expect.poll(() => toTeam().length, MAIL_WAIT).toBe(1);
    expect(toTeam()[0]?.subject).toBe('New partnership enquiry: Hill Radio');
    expect(await toTeam()[0]?.text()).toContain(`Organisation: Hill Radio`);
    expect(worker.sentEmails().filter((sent) => sent.to === TEAMS.SCHOOLS_TEAM_EMAIL)).toEqual([]);
    expect([...((await stored('Waitlist')) ?? []), ...((await stored('School Quotes')) ?? [])]).toEqual([]);
  }, 150_000);

  it('submissions lists it, privacy:export finds it and privacy:erase removes it', async () => {
    const listed = await npmRun('submissions', ['--url', emulator?.url ?? '', '--table', 'Partners']);
    expect(listed.out).toContain(`Partners (1)\n  ${email}`);
    expect(listed.out).toContain('Organisation: Hill Radio');
    const exported = await npmRun('privacy:export', [email]);
    expect(exported.code).toBe(0);
    const { records } = JSON.parse(exported.out) as { records: Record<string, unknown[]> };
    expect(records.Partners).toHaveLength(1);
    const erased = await npmRun('privacy:erase', [email]);
    expect(erased.out).toContain('1 in Partners');
    expect(erased.code).toBe(0);
    expect(await stored('Partners')).toEqual([]);
  }, 60_000);
});
