// @vitest-environment node
/**
 * A send that keeps failing, on the reference deploy in its real runtime: the Worker under
 * workerd through `wrangler dev` (as in worker-mail.test.ts), its `send_email` binding refusing a
 * recipient. The mail queue retries, then keeps a dead letter; the record is stored once and no
 * email goes out twice. An email waiting for its retry when its address is erased is dropped.
 * Its own file, so its retries run beside the other Worker suites.
 */
import { describe, expect, it } from 'vitest';
import { FORMS } from '#src/lib/forms/forms.ts';
import { enhancedPost } from './support/door.ts';
import { AIRTABLE_LIMITS, TEAM_EMAIL, useWorker } from './support/worker.ts';

const ADMIN_TOKEN = 'test-admin-token-for-worker-mail-dead-letters';

describe('a send that keeps failing, on the Worker under workerd', () => {
  // The binding refuses every recipient but the contact (as Email Service refuses a suppressed
  // or unverified one), and the mail queue gives up after three retries (2, 4 and 8 s apart: an
  // erasure made after the first try lands well before the last).
  const contact = `contact.${Date.now().toString(36)}@school.sch.uk`;
  const running = useWorker({
    emulator: AIRTABLE_LIMITS,
    vars: { SCHOOLS_TEAM_EMAIL: TEAM_EMAIL, ADMIN_TOKEN },
    editConfig: (config) => {
      config.send_email = [{ name: 'EMAIL', allowed_destination_addresses: [contact] }];
      const mail = config.queues?.consumers?.find((consumer) => consumer.queue === 'podling-mail');
      if (!mail) throw new Error('wrangler.jsonc has no podling-mail consumer');
      mail.max_retries = 3;
    },
  });

  it('is retried, then kept as a dead letter; the record is stored once and nothing is sent twice', async () => {
    const { emulator, worker, logs } = running();
    const school = 'Refused School';
    const answer = await enhancedPost(`${worker.url}${FORMS.quote.path}`, {
      email: contact,
      contactName: 'Grace',
      schoolName: school,
      useCases: ['showcase-creativity'],
    });
    expect(answer.status).toBe(200);
    const listing = async () =>
      (await (
        await fetch(`${worker.url}/api/dead-letters`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).json()) as { count: number; letters: { kind: string; email: string; reason: string }[] };
    // Every 2.5 s: the endpoint allows ADMIN_ATTEMPTS_PER_MINUTE (30) from one address, and the next
    // test's listing comes from the same one within the minute.
    await expect.poll(async () => (await listing()).count, { timeout: 90_000, interval: 2_500 }).toBe(1);
    expect((await listing()).letters[0]).toMatchObject({ kind: 'mail', email: contact });
    // Tried more than once before it was given up.
    expect(logs.filter((line) => line.includes('Mailer: an email failed')).length).toBeGreaterThanOrEqual(2);
    expect(emulator.records('School Quotes').filter((r) => r.fields.Email === contact)).toHaveLength(1);
    // The acknowledgement went out once, for all the team notification's retries; the team got nothing.
    const sent = worker.sentEmails();
    expect(sent.filter((email) => email.to === contact)).toHaveLength(1);
    expect(sent.filter((email) => email.to === TEAM_EMAIL)).toHaveLength(0);
  }, 120_000);

  it('an email still queued for its retry when its address is erased is dropped at its next try: never sent, never kept', async () => {
    const { worker, logs } = running();
    // Refused by the binding too, so its confirmation waits on the mail queue for its retry.
    const erased = `erased.${Date.now().toString(36)}@example.com`;
    const seen = logs.length;
    const since = () => logs.slice(seen);
    const answer = await enhancedPost(`${worker.url}${FORMS.waitlist.path}`, {
      email: erased,
      interests: ['use'],
    });
    expect(answer.status).toBe(200);
    await expect
      .poll(() => since().filter((line) => line.includes('Mailer: an email failed')).length, {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(1);

    const erasure = await fetch(`${worker.url}/api/dead-letters/erase`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `  ${erased.toUpperCase()} ` }),
    });
    expect(await erasure.json()).toMatchObject({ erased: 0, waiting: 0, stillWriting: false });
    // Its next try reads the erasure mark in MAIL_LEDGER's KV and drops it (acknowledged, not retried).
    const dropped = /Mailer: \d+ emails, 0 sent, 0 already sent, 1 erased, 0 retried, 0 dead-lettered/;
    await expect.poll(() => since().some((line) => dropped.test(line)), { timeout: 30_000 }).toBe(true);
    const letters = (await (
      await fetch(`${worker.url}/api/dead-letters`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).json()) as { letters: { email: string }[] };
    expect(letters.letters.map((letter) => letter.email)).not.toContain(erased);
    expect(worker.sentEmails().filter((email) => email.to === erased)).toHaveLength(0);
  }, 90_000);
});
