// @vitest-environment node
/**
 * The forms' answer templates on the dev server, which has no dist/: devFormTemplate renders one
 * through Vite's SSR loader, and renderFormAnswer fills it as it fills a built one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, EMAIL_COPY } from '#src/config/messages.ts';
import { renderFormAnswer } from '#src/server/doors/form-answer.ts';
import { renderLinkPage } from '#src/server/links/page.ts';
import { devFormTemplate } from '#scripts/vite-plugins/form-templates.ts';
import { freePort } from '#scripts/loadtest/worker-process.ts';

describe('devFormTemplate', () => {
  let server: ViteDevServer | undefined;
  let dataDir = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'podling-form-templates-'));
    process.env.AIRTABLE_EMULATOR_DATA = join(dataDir, 'airtable.json');
    const dev = await createServer({
      logLevel: 'silent',
      server: { port: await freePort(), host: '127.0.0.1' },
    });
    server = await dev.listen();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    delete process.env.AIRTABLE_EMULATOR_DATA;
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(['waitlist', 'quote'] as const)(
    '%s: a whole page with the dev server’s stylesheets and no script, filled like a built one',
    async (form) => {
      const template = await devFormTemplate(server!, form);
      expect(template).toMatch(/^<!doctype html>/i);
      expect(template).not.toMatch(/<script\b/i);
      expect(template).toContain('<link rel="stylesheet" href="/src/styles/global.css" />');
      expect(template).toContain('<link rel="stylesheet" href="/src/styles/forms.css" />');
      const page = renderFormAnswer(template, form, 'invalid-email', { email: 'a@<b>' });
      expect(page).toContain(MESSAGES.invalidEmail);
      expect(page).toContain('value="a@&lt;b&gt;"');
      expect(page).not.toContain('data-form-answer');
    },
    60_000,
  );

  it('the emails’ links’ page: a whole page, its styles inline and no script, filled like a built one', async () => {
    const template = await devFormTemplate(server!);
    expect(template).toMatch(/^<!doctype html>/i);
    expect(template).not.toMatch(/<script\b/i);
    expect(template).not.toContain('<link rel="stylesheet"');
    expect(template).toMatch(/<style>[^<]*\.site-header\b/);
    const page = renderLinkPage(template, {
      title: EMAIL_COPY.linkPages.unsubscribedTitle,
      body: EMAIL_COPY.linkPages.unsubscribedBody,
      parts: ['rejoin'],
    });
    expect(page).toContain(
      `<h1 id="email-link-heading" class="link-page__title">${EMAIL_COPY.linkPages.unsubscribedTitle}</h1>`,
    );
    expect(page).toContain(EMAIL_COPY.linkPages.rejoinAction);
    expect(page).not.toContain(EMAIL_COPY.linkPages.quoteBookingLink);
    expect(page).not.toMatch(/%%link-page:|data-link-page/);
  }, 60_000);
});
