import { afterAll, beforeAll, expect } from 'vitest';
import { enhancedPost } from './door.ts';
import {
  AIRTABLE_RATE_LIMIT_PER_SECOND,
  startEmulator,
  type RunningEmulator,
} from '#scripts/airtable-emulator/emulator.ts';
import { startWorker, type RunningWorker, type WranglerConfig } from '#scripts/loadtest/worker-process.ts';

export type WorkerSetup = {
  /** The emulator behind the Worker (startEmulator's defaults; AIRTABLE_LIMITS for Airtable's). */
  emulator?: Parameters<typeof startEmulator>[0];
  /** More of the Worker's variables (ADMIN_TOKEN, SCHOOLS_TEAM_EMAIL, say). */
  vars?: Record<string, string>;
  /** Changes wrangler.jsonc for this suite only (fewer retries, a refused recipient). */
  editConfig?: (config: WranglerConfig) => void;
  /** The built site to serve, read when the suite starts; without it, a two-page stand-in. */
  assetsDir?: () => string;
};

/** Airtable's limit (5 requests a second per base) and its 30 s penalty, on the emulator. */
export const AIRTABLE_LIMITS = {
  rateLimitPerSecond: AIRTABLE_RATE_LIMIT_PER_SECOND,
  rateLimitPenaltyMs: 30_000,
};

/** The schools team's address, as the mail suites configure the Worker (SCHOOLS_TEAM_EMAIL). */
export const TEAM_EMAIL = 'schools-team@example.org';

export type WorkerUnderTest = { emulator: RunningEmulator; worker: RunningWorker; logs: string[] };

/**
 * An emulator and the Worker in front of it (wrangler dev, workerd) for the enclosing suite.
 * Returns a getter for them and the lines the Worker logged. Each file that starts a Worker runs
 * in its own process, so files with Workers run side by side (vite.config.ts, `integration`).
 */
export function useWorker(setup: WorkerSetup = {}): () => WorkerUnderTest {
  const running: { emulator?: RunningEmulator; worker?: RunningWorker; logs: string[] } = { logs: [] };
  beforeAll(async () => {
    const emulator = await startEmulator({ port: 0, ...setup.emulator });
    running.emulator = emulator;
    running.worker = await startWorker({
      assetsDir: setup.assetsDir?.(),
      vars: {
        AIRTABLE_API_KEY: emulator.apiKey,
        AIRTABLE_BASE_ID: emulator.baseId,
        AIRTABLE_ENDPOINT_URL: emulator.url,
        ...setup.vars,
      },
      editConfig: setup.editConfig,
      onLog: (line) => running.logs.push(line),
    });
  }, 120_000);
  afterAll(async () => {
    await running.worker?.close();
    await running.emulator?.close();
  });
  return () => {
    if (!running.emulator || !running.worker) throw new Error('The Worker is only available inside tests');
    return { emulator: running.emulator, worker: running.worker, logs: running.logs };
  };
}

/** How long a mail suite waits for a record or an email the queues will bring. */
export const MAIL_WAIT = { timeout: 30_000, interval: 250 };

/**
 * A mail suite's view of the Worker under test: its records and sent emails by address, the
 * link in an email, a press of a link's button, and posts to the forms' doors; every request
 * from a client of its own (as Cloudflare names it, CF-Connecting-IP in `clientNet`), so no suite
 * meets the per-client limit, which tests/unit/link-door.test.ts covers.
 */
export function workerMailView(running: () => WorkerUnderTest, clientNet: string) {
  let clients = 0;
  const clientHeader = () => ({ 'cf-connecting-ip': `${clientNet}.${(clients += 1) % 250}` });
  const emailsTo = (to: string) =>
    running()
      .worker.sentEmails()
      .filter((email) => email.to === to);
  return {
    clientHeader,
    emailsTo,
    post: (url: string, values: Parameters<typeof enhancedPost>[1]) =>
      enhancedPost(url, values, clientHeader()),
    records: (table: string, email: string) =>
      running()
        .emulator.records(table)
        .filter((r) => r.fields.Email === email),
    /** The email's link to `linkPath` (confirm, change, unsubscribe), once that one email was sent. */
    async linkIn(to: string, subject: string, linkPath: string): Promise<string> {
      await expect.poll(() => emailsTo(to).filter((e) => e.subject === subject).length, MAIL_WAIT).toBe(1);
      const email = emailsTo(to).find((e) => e.subject === subject);
      const link = (await email?.links())?.find((href) => new URL(href).pathname === linkPath);
      if (!link) throw new Error(`No ${linkPath} link in the email to ${to}`);
      return link;
    },
    /** The link page's button: a plain form posting the token (and `extra`) back to the link's path. */
    press(link: string, extra: Record<string, string> = {}) {
      const url = new URL(link);
      return fetch(`${url.origin}${url.pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...clientHeader() },
        body: new URLSearchParams({ token: url.searchParams.get('token') ?? '', ...extra }).toString(),
      });
    },
  };
}
