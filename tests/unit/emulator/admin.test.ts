// @vitest-environment node
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultsFrom, renderRecordsPage } from '#scripts/airtable-emulator/admin.ts';
import { startEmulator } from '#scripts/airtable-emulator/emulator.ts';
import { outboxMailer } from '#scripts/airtable-emulator/outbox.ts';

describe('admin page and API helpers', () => {
  it('lists records newest first under their columns, escaping what visitors typed', () => {
    const page = renderRecordsPage(
      {
        Waitlist: [
          { id: 'rec1', createdTime: '', fields: { Email: 'first@x.co' } },
          { id: 'rec2', createdTime: '', fields: { Email: '<b>@x.co', Interests: ['a', 'b'] } },
        ],
      },
      { Waitlist: ['Email', 'Interests'] },
      'appX',
    );
    expect(page).toContain('<h2>Waitlist (2)</h2>');
    expect(page).toContain('<th scope="col">Interests</th>');
    expect(page).not.toContain('<b>@x.co');
    expect(page.indexOf('&lt;b&gt;@x.co')).toBeLessThan(page.indexOf('first@x.co'));
    expect(page).toContain('<td>a, b</td>');
  });

  it('takes one fault or a list, and ignores what is not an object', () => {
    expect(faultsFrom({ status: 500 })).toEqual([{ status: 500 }]);
    expect(faultsFrom([{ kind: 'hang' }, 3])).toEqual([{ kind: 'hang' }]);
  });

  it('lists the local outbox on its page, newest first, with every link clickable, and as JSON', async () => {
    const outboxDir = await mkdtemp(path.join(tmpdir(), 'emulator-outbox-'));
    const emulator = await startEmulator({ port: 0, outboxDir });
    try {
      const mailer = outboxMailer(outboxDir);
      const message = {
        from: { email: 'hello@podling.app', name: 'Podling' },
        html: '<p>x</p>',
        headers: {},
      };
      await mailer.send({
        ...message,
        to: 'first@example.com',
        subject: 'First <b>',
        text: 'Confirm: http://localhost:5173/api/email/confirm?token=a.b&x=1\n',
        idempotencyKey: '1',
      });
      await mailer.send({
        ...message,
        to: 'second@example.com',
        subject: 'Second',
        text: 'No link',
        idempotencyKey: '2',
      });
      // Visitors' addresses and live links: each file is this user's alone.
      for (const name of await readdir(outboxDir))
        expect((await stat(path.join(outboxDir, name))).mode & 0o777, name).toBe(0o600);
      const page = await (await fetch(`${emulator.url}/__emulator/`)).text();
      expect(page).toContain('<h2>Outbox (2)</h2>');
      expect(page).toContain(
        '<a href="http://localhost:5173/api/email/confirm?token=a.b&amp;x=1">http://localhost:5173/api/email/confirm?token=a.b&amp;x=1</a>',
      );
      expect(page).toContain('First &lt;b&gt;');
      expect(page.indexOf('second@example.com')).toBeLessThan(page.indexOf('first@example.com'));
      const { messages } = (await (await fetch(`${emulator.url}/__emulator/outbox`)).json()) as {
        messages: { headers: { to: string }; links: string[] }[];
      };
      expect(messages.map((entry) => entry.headers.to)).toEqual(['first@example.com', 'second@example.com']);
      expect(messages[0]?.links).toEqual(['http://localhost:5173/api/email/confirm?token=a.b&x=1']);
    } finally {
      await emulator.close();
      await rm(outboxDir, { recursive: true, force: true });
    }
  });
});
