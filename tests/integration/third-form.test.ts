// @vitest-environment node
/**
 * A form is data (issue 48): a third form, declared only in the tests (support/partners-form.ts),
 * flows end to end through the Worker in workerd, whose entry registers it and changes nothing
 * under src/server. Posted to its door, it is stored once in its own table of the emulator (whose
 * base comes from the forms), the team is told, and the owner's commands, run in this process
 * where the form is registered too, find it (privacy:export), remove it (privacy:erase) and list
 * its table (airtable:check).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBase } from '#scripts/launch-kit/airtable.ts';
import { PARTNERS_FORM } from './support/partners-form.ts';
import { runPrivacyCommand } from './support/emulator.ts';
import { MAIL_WAIT, TEAM_EMAIL, useWorker, workerMailView } from './support/worker.ts';

const ENTRY = path.join(import.meta.dirname, 'support/partners-worker.ts');

describe('a third form declared only in a test', () => {
  const running = useWorker({
    vars: { SCHOOLS_TEAM_EMAIL: TEAM_EMAIL },
    editConfig: (config) => {
      config.main = ENTRY;
    },
  });
  const { post, emailsTo } = workerMailView(running, '198.51.100');
  const email = `partner.${Date.now().toString(36)}@example.org`;
  const table = PARTNERS_FORM.table;

  it('is stored once in its table, and the team is told', async () => {
    const { emulator, worker } = running();
    const values = { email, organisation: 'Hill Radio', message: 'Shall we make a show together?' };
    const answer = await post(`${worker.url}${PARTNERS_FORM.path}`, values);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ success: true });
    await expect.poll(() => emulator.records(table).length, MAIL_WAIT).toBe(1);
    expect(emulator.records(table)[0]?.fields).toMatchObject({
      Email: email,
      'Email Key': email,
      Organisation: 'Hill Radio',
      Message: 'Shall we make a show together?',
    });
    await expect.poll(() => emailsTo(TEAM_EMAIL).length, MAIL_WAIT).toBe(1);
    expect(emailsTo(TEAM_EMAIL)[0]?.subject).toContain('Hill Radio');
    expect(await emailsTo(TEAM_EMAIL)[0]?.text()).toContain(email);
    // Posted again from the same address: held, as any stored address is (the team hears of it,
    // its owner is asked), and still one record, unchanged; nothing in the other forms' tables.
    await post(`${worker.url}${PARTNERS_FORM.path}`, { ...values, message: 'And a second one?' });
    await expect.poll(() => emailsTo(TEAM_EMAIL).length, MAIL_WAIT).toBe(2);
    expect(emulator.records(table)).toHaveLength(1);
    expect(emulator.records(table)[0]?.fields.Message).toBe('Shall we make a show together?');
    expect(emulator.records('Waitlist').concat(emulator.records('School Quotes'))).toEqual([]);
  }, 60_000);

  it('is listed by airtable:check, found by privacy:export and removed by privacy:erase', async () => {
    const { emulator } = running();
    const access = { endpointUrl: emulator.url, baseId: emulator.baseId };
    const report = await checkBase({ ...access, schemaToken: emulator.apiKey, siteToken: emulator.apiKey });
    expect(report.lines).toContain(`${table}: present`);
    expect(report.lines).toContain('  Organisation: present (singleLineText)');
    expect(report.ok, report.lines.join('\n')).toBe(true);

    const exported = await runPrivacyCommand(emulator, Date.now(), 'export', email);
    expect(exported.code).toBe(0);
    const { records } = JSON.parse(exported.out.join('\n')) as { records: Record<string, unknown[]> };
    expect(records[table]).toHaveLength(1);

    const erased = await runPrivacyCommand(emulator, Date.now(), 'erase', email);
    expect(erased.code).toBe(0);
    expect(erased.out.join('\n')).toContain(`1 in ${table}`);
    expect(emulator.records(table)).toEqual([]);
  });
});
