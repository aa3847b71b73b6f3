import { EMAIL_COPY } from '#src/config/messages.ts';
import { type MailContext, teamNotification, visitorEmail } from '#src/server/mail/emails.ts';
import { readyToSend } from '#src/server/mail/message.ts';
import { checkLink, EMAIL_LINK_PATHS } from '#src/server/links/tokens.ts';

const SECRET = 's'.repeat(48);
const NOW = new Date('2026-06-01T12:00:00Z');
const context: MailContext = {
  from: { email: 'hello@podling.app', name: 'Podling' },
  siteUrl: 'https://www.podling.app',
  now: NOW,
  linkSecret: SECRET,
};
/** A new quote's notice to the schools team, from its contact. */
const notice = { contact: 'head@school.sch.uk', at: NOW.toISOString(), kind: 'new' } as const;

/** The token of the first link in `text` that starts with `path`. */
function tokenAt(text: string, path: string): string {
  const url = (text.match(/https:\/\/\S+/g) ?? [])
    .map((link) => new URL(link))
    .find((link) => link.pathname === path);
  return url?.searchParams.get('token') ?? '';
}

describe('the site’s emails', () => {
  it('the confirmation carries a confirm link and a one-click unsubscribe, both signed and on the site’s origin', async () => {
    const message = await visitorEmail(context, 'waitlist', 'parent@example.co.uk', 'sub-1', {
      kind: 'confirm',
    });
    expect(message.to).toBe('parent@example.co.uk');
    expect(message.subject).toBe(EMAIL_COPY.confirm.subject);
    expect(message.idempotencyKey).toBe('confirm:sub-1');
    const confirm = await checkLink(
      tokenAt(message.text, EMAIL_LINK_PATHS.confirm),
      'confirm',
      [SECRET],
      NOW,
    );
    expect(confirm).toMatchObject({ ok: true, claims: { form: 'waitlist', email: 'parent@example.co.uk' } });
    expect(message.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = message.headers['List-Unsubscribe']?.match(
      /^<(https:\/\/www\.podling\.app\/api\/email\/unsubscribe\?token=[^>]+)>$/,
    )?.[1];
    expect(unsubscribe).toBeDefined();
    const token = new URL(unsubscribe ?? 'https://x').searchParams.get('token') ?? '';
    expect((await checkLink(token, 'unsubscribe', [SECRET], NOW)).ok).toBe(true);
    // The HTML part has the same button link, escaped for an attribute.
    expect(message.html).toContain(`href="https://www.podling.app${EMAIL_LINK_PATHS.confirm}?token=`);
  });

  it('looks like the product in any client: the name and mark as text at the top, a fallback link that wraps, dark mode, and a plain-text part with the same words', async () => {
    const message = await visitorEmail(context, 'waitlist', 'parent@example.co.uk', 'sub-1', {
      kind: 'confirm',
    });
    // The name and mark need no image from another server: readable with images off.
    expect(message.html).not.toMatch(/<img\b/i);
    expect(message.html).not.toMatch(/url\(/i);
    const top = message.html.slice(0, message.html.indexOf('class="email-card"'));
    expect(top).toContain(`>${EMAIL_COPY.senderName}</div>`);
    expect(top).toContain(EMAIL_COPY.tagline);
    // Both colour schemes declared, with dark colours for the clients that honour the query.
    expect(message.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(message.html).toContain('@media (prefers-color-scheme:dark)');
    // The signed address under the button breaks anywhere instead of running past a phone's edge.
    const url = message.text.match(/https:\/\/\S+\/api\/email\/confirm\?\S+/)?.[0] ?? '';
    const fallback = new RegExp(
      `<p style="[^"]*word-break:break-all;overflow-wrap:anywhere[^"]*"><a [^>]*>${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</a></p>`,
    );
    expect(message.html).toMatch(fallback);
    expect(message.html).toContain(EMAIL_COPY.fallbackLink);
    // The plain-text part: the name first, then every paragraph, the button's address, the sign-off and the way to stop.
    expect(message.text.startsWith(`${EMAIL_COPY.senderName}\n${EMAIL_COPY.tagline}\n`)).toBe(true);
    for (const words of [
      EMAIL_COPY.confirm.intro,
      EMAIL_COPY.confirm.ignore,
      `${EMAIL_COPY.confirm.action}:\n${url}`,
      EMAIL_COPY.signOff,
      EMAIL_COPY.footer,
      EMAIL_COPY.unsubscribeLine,
    ])
      expect(message.text).toContain(words);
  });

  it('a held change carries the new values inside its signed link, and echoes none of them', async () => {
    const values = { name: 'Mallory <a href="https://evil.example">click</a>', school: 'Any' };
    const message = await visitorEmail(context, 'quote', 'head@school.sch.uk', 'sub-2', {
      kind: 'change',
      values,
    });
    expect(message.text).not.toContain('Mallory');
    expect(message.html).not.toContain('Mallory');
    const change = await checkLink(tokenAt(message.text, EMAIL_LINK_PATHS.change), 'change', [SECRET], NOW);
    expect(change).toMatchObject({
      ok: true,
      claims: { form: 'quote', email: 'head@school.sch.uk', values },
    });
  });

  it('the quote acknowledgement links the booking page and echoes none of the free text', async () => {
    const message = await visitorEmail(context, 'quote', 'head@school.sch.uk', 'sub-3', {
      kind: 'acknowledge',
      copy: 'quoteAcknowledgement',
      url: 'https://calendly.com/podling/15min',
    });
    expect(message.text).toContain('https://calendly.com/podling/15min');
    expect(message.subject).toBe(EMAIL_COPY.quoteAcknowledgement.subject);
    expect(message.headers['List-Unsubscribe']).toMatch(
      /^<https:\/\/www\.podling\.app\/api\/email\/unsubscribe\?token=/,
    );
  });

  it('the schools team gets every field escaped, replies go to the contact, and no value reaches a header', async () => {
    const message = teamNotification(
      context,
      { email: 'schools@podling.app', copy: 'schoolsTeam' },
      {
        ...notice,
        id: 'team:new:sub-4',
        subject: 'St Mary’s <script>alert(1)</script>\r\nBcc: victim@example.com',
      },
      [
        ['Contact Name', 'Ms O’Neil & "Co"'],
        ['Message', 'Line one\nLine two <img src=x onerror=alert(1)>'],
      ],
    );
    expect(message.replyTo).toBe('head@school.sch.uk');
    expect(message.headers).toEqual({});
    expect(message.html).not.toMatch(/<script>|<img/);
    expect(message.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(message.html).toContain('Ms O’Neil &amp; &quot;Co&quot;');
    expect(message.text).toContain('Message: Line one\n    Line two <img src=x onerror=alert(1)>');
    const ready = readyToSend(message);
    expect(ready.subject).not.toMatch(/[\r\n]/);
    expect(ready.replyTo).toBe('head@school.sch.uk');
  });

  it('shows a stranger’s typed line breaks as text: no forged row in the team’s plain-text email', async () => {
    const message = teamNotification(
      context,
      { email: 'schools@podling.app', copy: 'schoolsTeam' },
      { ...notice, id: 'team:new:sub-5', subject: 'Hill School' },
      [
        ['Contact Name', 'Ada\r\nEmail: evil@example.com'],
        ['School Name', 'Hill\u2028School Name: Evil Academy\u0085Role: Head'],
      ],
    );
    const lines = message.text.split('\n');
    expect(lines.filter((line) => /^(Email|School Name|Role):/.test(line))).toEqual(['School Name: Hill']);
    expect(message.text).toContain('Contact Name: Ada\n    Email: evil@example.com');
  });
});
