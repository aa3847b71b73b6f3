import { EMAIL_COPY } from '#src/config/messages.ts';
import { PRODUCT_NAME } from '#src/config/site.ts';
import {
  LINK_PAGE_REGIONS,
  LINK_PAGE_SLOTS,
  LINK_PAGE_TEMPLATE_PATH,
  LINK_PAGE_REGION_ATTRIBUTE,
  regionEnd,
  regionStart,
  linkPageSlot,
} from '#src/lib/page-templates.ts';
import { isHiddenPath } from '#src/server/doors/form-answer.ts';
import { renderLinkPage } from '#src/server/links/page.ts';
import { handleEmailLink } from '#src/server/links/actions.ts';
import { type ConsentRecords } from '#src/server/privacy/consent-records.ts';
import { hostOf, pageTemplates } from '#src/server/host.ts';
import { signedUrl, type MailContext } from '#src/server/mail/emails.ts';

/** A template as the build renders one: every region and slot, in a frame. */
const TEMPLATE = `<!doctype html><html><head><title>${linkPageSlot('title')}</title></head><body><header>frame</header><main><h1>${linkPageSlot('heading')}</h1><p>${linkPageSlot('body')}</p>${linkPageSlot('rows')}${LINK_PAGE_REGIONS.map(
  (region) =>
    `${regionStart(LINK_PAGE_REGION_ATTRIBUTE, region)}<div id="${region}">${region === 'ask' ? `<form action="${linkPageSlot('action')}"><input value="${linkPageSlot('token')}"><button>${linkPageSlot('button')}</button></form>` : ''}</div>${regionEnd(LINK_PAGE_REGION_ATTRIBUTE, region)}`,
).join('')}</main><footer>frame</footer></body></html>`;

const SECRET = 'k'.repeat(40);
const NOW = new Date('2026-03-01T10:00:00Z');
const context: MailContext = {
  from: { email: 'hello@podling.app' },
  siteUrl: 'https://www.podling.app',
  now: NOW,
  linkSecret: SECRET,
};

describe('the email links’ page template', () => {
  it('is kept where no request reaches it', () => {
    expect(isHiddenPath(LINK_PAGE_TEMPLATE_PATH)).toBe(true);
  });

  it('keeps the parts of one page, puts its words in escaped, and leaves no marker', () => {
    const html = renderLinkPage(TEMPLATE, {
      title: 'Confirm <now>',
      body: 'Press & go',
      rows: [['interests', '<b>Use</b> %%link-page:token%%']],
      button: { label: 'Press "me"', action: '/api/email/change', token: 'abc.def' },
    });
    expect(html).toContain(`<title>Confirm &lt;now&gt; | ${PRODUCT_NAME}</title>`);
    expect(html).toContain('<h1>Confirm &lt;now&gt;</h1>');
    expect(html).toContain('<p>Press &amp; go</p>');
    // A value that looks like a slot stays text: one pass, never searched again.
    expect(html).toContain('<dd>&lt;b&gt;Use&lt;/b&gt; %%link-page:token%%</dd>');
    expect(html).toContain(
      '<form action="/api/email/change"><input value="abc.def"><button>Press &quot;me&quot;</button>',
    );
    expect(html).toContain('<div id="ask">');
    for (const region of LINK_PAGE_REGIONS.filter((name) => name !== 'ask'))
      expect(html).not.toContain(`id="${region}"`);
    expect(html).not.toContain('data-link-page');
    expect(html.match(/%%link-page:/g)).toHaveLength(1);
  });

  it('keeps the next steps it is given and no button without one', () => {
    const html = renderLinkPage(TEMPLATE, { title: 'Done', body: 'Done.', parts: ['next-waitlist'] });
    expect(html).toContain('<div id="next-waitlist">');
    expect(html).not.toContain('<div id="ask">');
    expect(html).not.toContain('<div id="next-quote">');
  });

  it('refuses a template that drifted from the renderer, and then the page is the minimal one', async () => {
    const drifted = TEMPLATE.replace(linkPageSlot('body'), '');
    expect(() => renderLinkPage(drifted, { title: 'T', body: 'B' })).toThrow(/'body' slot/);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const pages = pageTemplates(async () => drifted);
    const fill = (template: string) => renderLinkPage(template, { title: 'T', body: 'B' });
    expect(await pages(LINK_PAGE_TEMPLATE_PATH, fill)).toBeNull();
  });

  it('reads the template once per instance, from the path the build writes it to', async () => {
    const load = vi.fn(async (path: string) => (path === LINK_PAGE_TEMPLATE_PATH ? TEMPLATE : null));
    const pages = pageTemplates(load);
    await pages(LINK_PAGE_TEMPLATE_PATH, (template) => renderLinkPage(template, { title: 'A', body: 'a' }));
    await pages(LINK_PAGE_TEMPLATE_PATH, (template) => renderLinkPage(template, { title: 'B', body: 'b' }));
    expect(load).toHaveBeenCalledTimes(1);
    expect(LINK_PAGE_SLOTS.every((slot) => TEMPLATE.includes(linkPageSlot(slot)))).toBe(true);
  });

  it("the Worker's host reads a deploy's template once for all of an isolate's requests", async () => {
    const assets = vi.fn(async (request: Request) =>
      new URL(request.url).pathname === LINK_PAGE_TEMPLATE_PATH.replace(/\.html$/, '')
        ? new Response(TEMPLATE)
        : new Response(null, { status: 404 }),
    );
    const env = { ASSETS: { fetch: assets } };
    for (const title of ['A', 'B'])
      expect(
        await hostOf(env).templates(LINK_PAGE_TEMPLATE_PATH, (template) =>
          renderLinkPage(template, { title, body: title }),
        ),
      ).toContain(`<h1>${title}</h1>`);
    expect(assets).toHaveBeenCalledTimes(1);
  });

  it('a link answers in the frame: after confirming, the next steps; a tampered link 400 with the way to a new one', async () => {
    const records: ConsentRecords = {
      find: async () => ({ id: 'rec1', consent: 'Pending' }),
      setConsent: async () => {},
      createWithdrawn: async () => {},
      applyValues: async () => 'applied' as const,
    };
    const options = {
      records,
      linkSecrets: [SECRET],
      now: () => NOW,
      // Only the path the build writes the template to has it: the page below is in the frame.
      pages: pageTemplates(async (path) => (path === LINK_PAGE_TEMPLATE_PATH ? TEMPLATE : null)),
    };
    const url = new URL(
      await signedUrl(context, { purpose: 'confirm', form: 'waitlist', email: 'p@example.com' }),
    );
    const opened = await handleEmailLink(new Request(url), options);
    expect(opened.status).toBe(200);
    const asked = await opened.text();
    expect(asked).toContain('<header>frame</header>');
    expect(asked).toContain(`<h1>${EMAIL_COPY.linkPages.confirmTitle}</h1>`);
    expect(asked).toContain('<form action="/api/email/confirm">');
    expect(opened.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(opened.headers.get('content-security-policy')).not.toMatch(/script-src/);

    const pressed = await handleEmailLink(
      new Request(`https://www.podling.app${url.pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: url.searchParams.get('token') ?? '' }).toString(),
      }),
      options,
    );
    const done = await pressed.text();
    expect(done).toContain(`<h1>${EMAIL_COPY.linkPages.confirmedTitle}</h1>`);
    expect(done).toContain('<div id="next-waitlist">');
    expect(done).not.toContain('<div id="ask">');

    const tampered = await handleEmailLink(
      new Request(
        url.toString().replace(/token=./, (match) => (match.endsWith('A') ? 'token=B' : 'token=A')),
      ),
      options,
    );
    expect(tampered.status).toBe(400);
    const refused = await tampered.text();
    expect(refused).toContain(`<h1>${EMAIL_COPY.linkPages.invalidTitle}</h1>`);
    expect(refused).toContain('<div id="sign-up">');
  });
});
