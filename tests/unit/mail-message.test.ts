import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  cloudflareMailer,
  MailFailure,
  type SendEmailBinding,
  encodeHeaderWords,
  formatAddress,
  headerAddress,
  headerText,
  type MailMessage,
  toRfc5322,
} from '#src/server/mail.ts';
import { outboxMailer, parseOutboxMessage, readOutbox } from '#scripts/airtable-emulator/outbox.ts';

const AT = new Date('2026-05-04T09:08:07Z');

const message: MailMessage = {
  from: { email: 'hello@podling.app', name: 'Podling' },
  to: 'parent@example.co.uk',
  replyTo: 'head@school.sch.uk',
  subject: 'Confirm your place on the Podling waitlist – ✓',
  text: 'Hello Zoë,\nPress the button: https://www.podling.app/confirm?token=abc.def\n',
  html: '<p>Hello Zo&euml;,</p>',
  headers: {
    'List-Unsubscribe': '<https://www.podling.app/unsubscribe?token=x.y>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  idempotencyKey: 'waitlist:parent@example.co.uk:confirm:1',
};

describe('mail headers', () => {
  it('CR, LF and other controls never reach a header', () => {
    expect(headerText('Hi\r\nBcc: victim@example.com')).toBe('Hi Bcc: victim@example.com');
    expect(headerText('a\u0000b\tc\u007f')).toBe('a b c');
    const raw = toRfc5322(
      {
        ...message,
        subject: 'Quote\r\nBcc: victim@example.com',
        from: { email: 'hello@podling.app', name: 'Team\nX-Evil: 1' },
      },
      AT,
      'id@podling.app',
    );
    const headerLines = raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n');
    expect(headerLines.some((line) => /^(Bcc|X-Evil):/i.test(line))).toBe(false);
    expect(headerLines).toContain('Subject: Quote Bcc: victim@example.com');
  });

  it('refuses an address that could add a recipient or a header', () => {
    for (const bad of [
      'a@b.c\r\nBcc: x@y.z',
      'a@b.c, x@y.z',
      '<a@b.c>',
      'a b@c.d',
      'a@b.c;x@y.z',
      '"a"@b.c',
      '=?utf-8?b?U2Nob29sIEJvYXJk?=@example.com',
    ]) {
      expect(() => headerAddress(bad), bad).toThrow(/unsafe address/);
    }
    expect(headerAddress('o’brien+tag@example.co.uk')).toBe('o’brien+tag@example.co.uk');
  });

  it('encodes non-ASCII subjects and names as RFC 2047 words, and quotes ASCII names', () => {
    expect(encodeHeaderWords('Plain subject')).toBe('Plain subject');
    const encoded = encodeHeaderWords('Zoë’s waitlist place ✓ '.repeat(4));
    for (const word of encoded.split('\r\n ')) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
    }
    const decoded = encoded
      .split('\r\n ')
      .map((word) => Buffer.from(word.slice(10, -2), 'base64').toString('utf8'))
      .join('');
    expect(decoded).toBe(headerText('Zoë’s waitlist place ✓ '.repeat(4)));
    expect(formatAddress({ email: 'a@b.co', name: 'The "Podling" team' })).toBe(
      '"The \\"Podling\\" team" <a@b.co>',
    );
  });

  it('renders a multipart/alternative message whose parts decode to the text and the HTML', () => {
    const raw = toRfc5322(message, AT, 'abc@podling.app');
    expect(raw).toContain('Date: Mon, 04 May 2026 09:08:07 +0000\r\n');
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n');
    expect(raw).toContain('Reply-To: head@school.sch.uk\r\n');
    expect(raw.split('\r\n').every((line) => line.length <= 998)).toBe(true);
    const parsed = parseOutboxMessage('x.eml', raw);
    expect(parsed.headers.subject).toBe(message.subject);
    expect(parsed.headers.from).toBe('"Podling" <hello@podling.app>');
    expect(parsed.text).toBe(message.text.replace(/\n/g, '\r\n'));
    expect(parsed.html).toBe(message.html);
    expect(parsed.links).toEqual(['https://www.podling.app/confirm?token=abc.def']);
  });
});

describe('the local outbox', () => {
  let directory = '';
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'outbox-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('writes one .eml file per message, and one only when the same message is sent again', async () => {
    const mailer = outboxMailer(directory, () => AT);
    const first = await mailer.send(message);
    const again = await mailer.send(message);
    expect(again.id).toBe(first.id);
    await mailer.send({ ...message, to: 'other@example.com', idempotencyKey: 'another' });
    expect((await readdir(directory)).filter((name) => name.endsWith('.eml'))).toHaveLength(2);
    const outbox = await readOutbox(directory);
    expect(outbox.map((entry) => entry.headers.to)).toEqual(['parent@example.co.uk', 'other@example.com']);
  });

  it('an outbox that does not exist yet is empty', async () => {
    expect(await readOutbox(path.join(directory, 'missing'))).toEqual([]);
  });
});

describe('the Worker’s mailer (send_email binding)', () => {
  it('hands the binding the structured message, headers cleaned', async () => {
    const sent: Parameters<SendEmailBinding['send']>[0][] = [];
    const mailer = cloudflareMailer({
      async send(value) {
        sent.push(value);
        return { messageId: '<m1@podling.app>' };
      },
    });
    expect(await mailer.send(message)).toEqual({ id: '<m1@podling.app>' });
    expect(sent).toEqual([
      {
        from: { email: 'hello@podling.app', name: 'Podling' },
        to: 'parent@example.co.uk',
        replyTo: 'head@school.sch.uk',
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
      },
    ]);
  });

  it('an unsafe address is refused for good, before the binding is called', async () => {
    const send = vi.fn();
    const mailer = cloudflareMailer({ send });
    await expect(mailer.send({ ...message, to: 'a@b.c\r\nBcc: x@y.z' })).rejects.toMatchObject({
      name: 'MailFailure',
      retryable: false,
    });
    expect(send).not.toHaveBeenCalled();
  });

  it('a binding that throws is a retryable MailFailure', async () => {
    const mailer = cloudflareMailer({
      send: () => Promise.reject(new Error('email from hello@podling.app not allowed')),
    });
    await expect(mailer.send(message)).rejects.toEqual(expect.any(MailFailure));
    await expect(mailer.send(message)).rejects.toMatchObject({ retryable: true });
  });
});
