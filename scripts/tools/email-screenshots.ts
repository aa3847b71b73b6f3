/**
 * Screenshots of the email journey, from the real thing: the site (`vite preview` of dist/, or `vite`
 * with --dev) on a free loopback port with its state in a temporary folder; sign-ups through the real
 * forms in Chromium; each email's HTML part, then its links' pages, buttons pressed, at 390 and 1280
 * CSS px. docs/consent.md shows them; tests/e2e/email-link-pages.spec.ts checks the pages.
 *
 *   npm run build && npm run screenshots:email        # the build, as deployed
 *   npm run screenshots:email -- --dev                # the sources, through `vite`
 *   npm run screenshots:email -- --out /tmp/shots     # somewhere else (default docs/screenshots/)
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { createServer, preview } from 'vite';
import { readOutbox, type OutboxMessage } from '#scripts/airtable-emulator/outbox.ts';
import { CHROMIUM_FLAGS, testBrowserPath } from '#scripts/bench/chromium.mjs';
import { freePort } from '#scripts/loadtest/worker-process.ts';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { signLink } from '#src/server/links/tokens.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WIDTHS = [390, 1280] as const;
const WAIT_MS = 30_000;

const { values: options } = parseArgs({
  options: { dev: { type: 'boolean', default: false }, out: { type: 'string', default: 'docs/screenshots' } },
});
const outDir = path.resolve(ROOT, options.out);

/** Starts `vite` or `vite preview` in this process on `port`, with its state in `dir`. */
async function startSite(port: number, dir: string, linkSecret: string): Promise<() => Promise<void>> {
  if (!options.dev && !existsSync(path.join(ROOT, 'dist', 'client', '__forms', 'email-link.html')))
    throw new Error('No relay-mode build in dist/: run `npm run build` first (or pass --dev).');
  // The Worker's and the stand-ins' settings, as worker-server.ts reads them from the shell.
  Object.assign(process.env, {
    MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
    AIRTABLE_EMULATOR_DATA: path.join(dir, 'airtable.json'),
    WORKER_STATE_DIR: path.join(dir, 'state'),
    LINK_SECRET: linkSecret,
  });
  const listen = { port, strictPort: true };
  const server = options.dev
    ? await (await createServer({ root: ROOT, logLevel: 'warn', server: listen })).listen()
    : await preview({ root: ROOT, logLevel: 'warn', preview: listen });
  return () => server.close();
}

/** The email `subject` to `to`, once the Worker has written it to the outbox. */
async function emailed(dir: string, to: string, subject: string): Promise<OutboxMessage> {
  const end = Date.now() + WAIT_MS;
  for (;;) {
    const outbox = await readOutbox(path.join(dir, 'outbox')).catch(() => []);
    const found = outbox.find((message) => message.headers.to === to && message.headers.subject === subject);
    if (found) return found;
    if (Date.now() > end) throw new Error(`Gave up waiting for "${subject}" to ${to}`);
    await sleep(250);
  }
}

const linkIn = (message: OutboxMessage, kind: 'confirm' | 'change' | 'unsubscribe'): string => {
  const link = message.links.find((candidate) => candidate.includes(`/api/email/${kind}?`));
  if (!link) throw new Error(`No ${kind} link in "${message.headers.subject}"`);
  return link;
};

/** Seeds a record through the emulator's admin API, on the site's origin. */
async function seed(site: string, table: string, fields: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${site}/__emulator/records/${encodeURIComponent(table)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fields }),
  });
  if (!response.ok) throw new Error(`Seeding ${table}: ${response.status} ${await response.text()}`);
}

const written: string[] = [];

/**
 * The page `load` opens, full length, at each width: loaded once (a pressed button acts once), then
 * resized. `dark`: at 390 px only, as Apple Mail and iOS Mail show it on a phone set to dark.
 */
async function shoot(browser: Browser, name: string, load: (page: Page) => Promise<void>, dark = false) {
  const widths = dark ? [390] : WIDTHS;
  const context = await browser.newContext({
    viewport: { width: widths[0] ?? 390, height: 900 },
    deviceScaleFactor: 1,
    colorScheme: dark ? 'dark' : 'light',
  });
  const page = await context.newPage();
  await load(page);
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    const file = path.join(outDir, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    written.push(path.relative(ROOT, file));
  }
  await context.close();
}

/** An email's HTML part as a mail client shows it (no network: it needs none). */
const showEmail = (message: OutboxMessage) => async (page: Page) => {
  await page.route('**/*', (route) => route.abort());
  await page.setContent(message.html, { waitUntil: 'load' });
};

/** A link's page: opened, and with `press`, its button pressed. */
const openLink = (link: string, press?: string) => async (page: Page) => {
  await page.goto(link);
  if (press) {
    await page.getByRole('button', { name: press }).click();
    await page.waitForLoadState('load');
  }
};

const copy = EMAIL_COPY.linkPages;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'email-screenshots-'));
  const linkSecret = randomBytes(32).toString('hex');
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  await mkdir(outDir, { recursive: true });
  const stopSite = await startSite(port, dir, linkSecret);
  const browser = await chromium.launch({ executablePath: testBrowserPath(), args: [...CHROMIUM_FLAGS] });
  try {
    const parent = 'parent@example.co.uk';
    const returning = 'returning.parent@example.co.uk';
    const teacher = 'head@riverside.sch.uk';
    const returningTeacher = 'deputy@hillside.sch.uk';
    const at = '2026-01-05T09:00:00.000Z';
    await seed(site, 'Waitlist', {
      Email: returning,
      Interests: ['Use Podling'],
      Consent: 'Confirmed',
      'Confirmed At': at,
      'Created At': at,
      'Last Updated': at,
    });
    await seed(site, 'School Quotes', {
      Email: returningTeacher,
      'Contact Name': 'Sam Okafor',
      'School Name': 'Hillside Primary',
      Role: 'Deputy Head',
      'Use Cases': ['Support Learners'],
      Status: 'New',
      'Created At': at,
      'Last Updated': at,
    });

    // Sign up through the real forms, a new page for each (a joined form stays joined).
    const joinWaitlist = async (email: string, interest: string) => {
      const page = await browser.newPage();
      await page.goto(`${site}/#waitlist`);
      await page.getByRole('checkbox', { name: interest }).check();
      await page.getByRole('textbox', { name: 'Email address', exact: true }).fill(email);
      await page.getByRole('button', { name: 'Join the waitlist' }).click();
      await page.getByText('Thanks for your interest in').first().waitFor();
      await page.close();
    };
    const askForQuote = async (email: string, name: string, school: string) => {
      const page = await browser.newPage();
      await page.goto(`${site}/schools`);
      await page.getByRole('textbox', { name: 'Your Name', exact: true }).fill(name);
      await page.getByRole('textbox', { name: 'Email Address', exact: true }).fill(email);
      await page.getByRole('textbox', { name: 'School/Institution Name', exact: true }).fill(school);
      await page.getByRole('textbox', { name: 'Role', exact: true }).fill('Head of English');
      await page.getByRole('checkbox', { name: 'Practice Speaking' }).check();
      await page.getByRole('button', { name: 'Request a Quote' }).click();
      await page.getByRole('heading', { name: 'Thank You!' }).waitFor();
      await page.close();
    };
    await joinWaitlist(parent, 'Use Podling');
    await joinWaitlist(returning, 'Partner with Podling');
    await askForQuote(teacher, 'Aoife Byrne', 'Riverside Primary');
    await askForQuote(returningTeacher, 'Sam Okafor', 'Hillside Primary School');

    const confirmation = await emailed(dir, parent, EMAIL_COPY.confirm.subject);
    const change = await emailed(dir, returning, EMAIL_COPY.change.subject);
    const acknowledgement = await emailed(dir, teacher, EMAIL_COPY.quoteAcknowledgement.subject);
    const quoteChange = await emailed(dir, returningTeacher, EMAIL_COPY.change.subject);
    await shoot(browser, 'email-confirm', showEmail(confirmation));
    await shoot(browser, 'email-change', showEmail(change));
    await shoot(browser, 'email-quote-acknowledgement', showEmail(acknowledgement));
    await shoot(browser, 'email-confirm-dark', showEmail(confirmation), true);

    const confirm = linkIn(confirmation, 'confirm');
    await shoot(browser, 'page-confirm', openLink(confirm));
    await shoot(browser, 'page-confirmed', openLink(confirm, copy.confirmButton));
    // The place is confirmed now: every further press says so.
    await shoot(browser, 'page-already-confirmed', openLink(confirm, copy.confirmButton));
    await shoot(browser, 'page-change', openLink(linkIn(change, 'change')));
    await shoot(browser, 'page-changed', openLink(linkIn(change, 'change'), copy.changeButton));
    await shoot(browser, 'page-quote-changed', openLink(linkIn(quoteChange, 'change'), copy.changeButton));
    const unsubscribe = linkIn(acknowledgement, 'unsubscribe');
    await shoot(browser, 'page-unsubscribe', openLink(unsubscribe));
    await shoot(browser, 'page-unsubscribed', openLink(unsubscribe, copy.unsubscribeButton));
    // A link from an email sent 8 days ago, signed with this run's secret.
    const expiresAt = Math.floor(Date.now() / 1000) - 24 * 3600;
    const expiredToken = await signLink(
      { purpose: 'confirm', form: 'waitlist', email: parent, expiresAt },
      linkSecret,
    );
    await shoot(browser, 'page-expired', openLink(`${site}/api/email/confirm?token=${expiredToken}`));
    const tampered = confirm.replace(/token=./, (match) => (match.endsWith('A') ? 'token=B' : 'token=A'));
    await shoot(browser, 'page-tampered', openLink(tampered));
  } finally {
    await browser.close();
    await stopSite();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`Wrote ${written.length} screenshots:\n  ${written.join('\n  ')}`);
}

await main();
