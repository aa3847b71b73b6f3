// @vitest-environment node
/**
 * A send that keeps failing, on the reference deploy in its real runtime: the Worker under
 * workerd through `wrangler dev` (as in worker-mail.test.ts), its `send_email` binding refusing a
 * recipient. The mail queue retries, then keeps a dead letter; the record is stored once and no
 * email goes out twice. Its own file, so its retries run beside the other Worker suites.
 */
import { describe, expect, it } from 'vitest';
import { FORMS } from '#src/lib/forms/forms.ts';
import { enhancedPost } from './support/door.ts';
import { AIRTABLE_LIMITS, TEAM_EMAIL, useWorker } from './support/worker.ts';

const ADMIN_TOKEN = 'test-admin-token-for-worker-mail-dead-letters';

describe('a send that keeps failing, on the Worker under workerd', () => {
  // The binding refuses every recipient but the contact (as Email Service refuses a suppressed
  // or unverified one), and the mail queue gives up after two retries.
  const contact = `contact.${Date.now().toString(36)}@school.sch.uk`;
  const running = useWorker({
    emulator: AIRTABLE_LIMITS,
    vars: { SCHOOLS_TEAM_EMAIL: TEAM_EMAIL, ADMIN_TOKEN },
    editConfig: (config) => {
      config.send_email = [{ name: 'EMAIL', allowed_destination_addresses: [contact] }];
      const mail = config.queues?.consumers?.find((consumer) => consumer.queue === 'podling-mail');
      if (!mail) throw new Error('wrangler.jsonc has no podling-mail consumer');
      mail.max_retries = 2;
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
    await expect.poll(async () => (await listing()).count, { timeout: 60_000, interval: 1_000 }).toBe(1);
    expect((await listing()).letters[0]).toMatchObject({ kind: 'mail', email: contact });
    // Tried more than once before it was given up.
    expect(logs.filter((line) => line.includes('Mailer: an email failed')).length).toBeGreaterThanOrEqual(2);
    expect(emulator.records('School Quotes').filter((r) => r.fields.Email === contact)).toHaveLength(1);
    // The acknowledgement went out once, for all the team notification's retries; the team got nothing.
    const sent = worker.sentEmails();
    expect(sent.filter((email) => email.to === contact)).toHaveLength(1);
    expect(sent.filter((email) => email.to === TEAM_EMAIL)).toHaveLength(0);
  }, 90_000);
});
