import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMAIL_COPY } from '#src/config/messages.ts';
import { cloudflareMailer, type SendEmailBinding } from '#src/server/host.ts';
import {
  headerAddress,
  headerText,
  headerValue,
  MailFailure,
  type MailMessage,
  readyToSend,
} from '#src/server/mail/message.ts';
import { teamNotification } from '#src/server/mail/emails.ts';
import PostalMime from 'postal-mime';
import { outboxMailer, parseOutboxMessage, readOutbox } from '#scripts/airtable-emulator/outbox.ts';

const AT = new Date('2026-05-04T09:08:07Z');

/** A school name whose Subject a mail program would show as "URGENT: visit evil.example". */
const ENCODED_WORD = '=?utf-8?b?VVJHRU5UOiB2aXNpdCBldmlsLmV4YW1wbGU=?=';
const RLO = '\u202e';

/** A header value as a mail program shows it: decoded by postal-mime, which decodes RFC 2047 like one. */
const shown = async (value: string) => (await PostalMime.parse(`Subject: ${value}\r\n\r\nx\r\n`)).subject;

/** The schools team's notice of a quote from `school`. */
const teamNotice = (school: string) =>
  teamNotification(
    { from: { email: 'hello@podling.app', name: 'Podling' } },
    { email: 'schools@podling.app', copy: 'schoolsTeam' },
    { id: 'team:new:k', subject: school, contact: 'head@school.sch.uk', at: AT.toISOString(), kind: 'new' },
    [['School Name', school]],
  );

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

describe('the local outbox', () => {
  let directory = '';
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'outbox-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('CR, LF and other controls never reach a header', async () => {
    expect(headerText('Hi\r\nBcc: victim@example.com')).toBe('Hi Bcc: victim@example.com');
    expect(headerText('a\u0000b\tc\u007f')).toBe('a b c');
    const { id } = await outboxMailer(directory, () => AT).send({
      ...message,
      subject: 'Quote\r\nBcc: victim@example.com',
      from: { email: 'hello@podling.app', name: 'Team\nX-Evil: 1' },
    });
    const raw = await readFile(id, 'utf8');
    const headerLines = raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n');
    expect(headerLines.some((line) => /^(Bcc|X-Evil):/i.test(line))).toBe(false);
    expect((await parseOutboxMessage(id, raw)).headers.subject).toBe('Quote Bcc: victim@example.com');
  });

  it('refuses an address that could add a recipient or a header', async () => {
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
    await expect(
      outboxMailer(directory, () => AT).send({ ...message, to: 'a@b.c\r\nBcc: x@y.z' }),
    ).rejects.toMatchObject({ name: 'MailFailure', retryable: false });
    expect(await readdir(directory)).toEqual([]);
  });

  it('writes a multipart/alternative .eml that reads back as it was sent', async () => {
    const { id } = await outboxMailer(directory, () => AT).send(message);
    const raw = await readFile(id, 'utf8');
    expect(raw).toContain('Date: Mon, 04 May 2026 09:08:07 +0000\r\n');
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(raw.split('\r\n').every((line) => line.length <= 998)).toBe(true);
    const parsed = await parseOutboxMessage(id, raw);
    expect(parsed.headers).toMatchObject({
      subject: message.subject,
      from: 'Podling <hello@podling.app>',
      to: 'parent@example.co.uk',
      'reply-to': 'head@school.sch.uk',
      'list-unsubscribe': '<https://www.podling.app/unsubscribe?token=x.y>',
      'list-unsubscribe-post': 'List-Unsubscribe=One-Click',
    });
    expect(parsed.text.trimEnd()).toBe(message.text.trimEnd());
    expect(parsed.html.trim()).toBe(message.html);
    expect(parsed.links).toEqual(['https://www.podling.app/confirm?token=abc.def']);
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

describe('header text is text', () => {
  it('a typed encoded word reads as typed in the Subject, in the outbox and through the send_email binding', async () => {
    expect(await shown(`New quote request: ${ENCODED_WORD}`)).toBe(
      'New quote request: URGENT: visit evil.example',
    );
    const expected = `New quote request: ${ENCODED_WORD}`;
    const message = teamNotice(ENCODED_WORD);
    const directory = await mkdtemp(path.join(tmpdir(), 'outbox-'));
    try {
      const { id } = await outboxMailer(directory, () => AT).send(message);
      expect((await parseOutboxMessage(id, await readFile(id, 'utf8'))).headers.subject).toBe(expected);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    const sent: Parameters<SendEmailBinding['send']>[0][] = [];
    await cloudflareMailer({ send: async (value) => (sent.push(value), { messageId: 'm' }) }).send(message);
    expect(await shown(sent[0]!.subject)).toBe(expected);
  });

  it('every header value: split into encoded words of at most 75 characters that decode to the text, never mid-character', async () => {
    const long = `École =?x?q?y?= ${'Zoë 🎙️ '.repeat(20)}`.trim();
    const encoded = headerValue(long);
    expect(
      encoded.split(' ').every((word) => /^=\?utf-8\?b\?[A-Za-z0-9+/=]+\?=$/.test(word) && word.length <= 75),
    ).toBe(true);
    expect(await shown(encoded)).toBe(long);
    // Without '=?' a value is left to the transport (which encodes non-ASCII itself).
    expect(headerValue('Zoë’s school')).toBe('Zoë’s school');
    // A '=?' made by removing a control is found too.
    expect(await shown(headerValue(`=${RLO}?utf-8?b?VVJHRU5U?=`))).toBe('=?utf-8?b?VVJHRU5U?=');
  });

  it('bidirectional controls are removed from every header value and from the names in the team’s email', async () => {
    const controls = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f';
    expect(headerText(`Hill${controls} School`)).toBe('Hill School');
    const message = teamNotice(`Hill ${RLO}loohcS`);
    const ready = readyToSend({
      ...message,
      from: { email: 'hello@podling.app', name: `Pod${RLO}ling` },
      headers: { 'X-Test': `a${RLO}b` },
    });
    for (const value of [ready.subject, message.subject, message.text, message.html, JSON.stringify(ready)])
      expect(value).not.toContain(RLO);
    expect(ready.subject).toBe(EMAIL_COPY.schoolsTeam.new.subject('Hill loohcS'));
    expect(() => headerAddress(`a${RLO}b@example.com`)).toThrow(/unsafe address/);
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
