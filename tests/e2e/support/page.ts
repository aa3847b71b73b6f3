import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page, TestInfo } from '@playwright/test';
import { EMULATOR_URL } from './config.mjs';
import {
  expect,
  PAGE_POLL_MS,
  untilHydrated,
  type NetworkLog,
  type Visit,
  type VisitOptions,
} from './fixtures.ts';
import { QUOTE_FORM, WAITLIST_FORM } from './forms.ts';

/** A short token no other test, worker or run produces: the time and five random characters. */
export const uniqueToken = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** An address no other test (or worker) uses, `<local>.w<worker>.<token>@<domain>`: the emulator is shared. */
export function uniqueEmail(testInfo: TestInfo, local: string, domain = 'example.co.uk'): string {
  return `${local}.w${testInfo.workerIndex}.${uniqueToken()}@${domain}`;
}

/** The page is prerendered: waits until React has hydrated the node `selector` finds (its fiber is attached). */
export async function waitForHydration(page: Page, selector = '#root > *, main'): Promise<void> {
  await page.waitForFunction(
    (target) => {
      const node = document.querySelector(target);
      return node !== null && Object.keys(node).some((key) => key.startsWith('__reactFiber'));
    },
    selector,
    { polling: PAGE_POLL_MS },
  );
}

/**
 * Waits until the page is as settled as a visitor who leaves it alone would find it, before a test
 * asserts that something did not happen: loaded, hydrated, none of the site's own requests under
 * way, and the browser idle twice in a row without starting another one (the site defers work to
 * idle time after load). Unlike Playwright's 'networkidle' it ignores embedded frames' traffic and
 * waits for no fixed quiet period.
 */
export async function settle(page: Page, network: NetworkLog): Promise<void> {
  await page.waitForLoadState('load');
  await untilHydrated(page);
  await expect
    .poll(
      async () => {
        if (network.pending.size > 0) return false;
        const started = network.started;
        await page.evaluate(
          () =>
            new Promise<void>((resolve) => {
              const idle = (next: () => void) => requestIdleCallback(() => next(), { timeout: 2_000 });
              idle(() => idle(() => resolve()));
            }),
        );
        return network.started === started && network.pending.size === 0;
      },
      { message: 'the page settles: none of its requests under way, idle twice without a new one' },
    )
    .toBe(true);
}

/** Visits `path` and waits until React has hydrated the form `formSelector` before it is used. */
export async function openForm(
  page: Page,
  visit: Visit,
  path: string,
  formSelector: string,
  options?: VisitOptions,
): Promise<void> {
  await visit(path, options);
  await waitForHydration(page, formSelector);
}

/** Opens the home page and waits until its waitlist form is hydrated. */
export const openHome = (page: Page, visit: Visit, options?: VisitOptions) =>
  openForm(page, visit, WAITLIST_FORM.path, WAITLIST_FORM.formSelector, options);

/** Opens the schools page and waits until its quote form is hydrated. */
export const openSchoolsPage = (page: Page, visit: Visit, options?: VisitOptions) =>
  openForm(page, visit, QUOTE_FORM.path, QUOTE_FORM.formSelector, options);

/**
 * Runs axe on the page as it is and expects no violation; `state` names the moment in the message.
 * Legacy mode runs axe in the page itself (its frames included) instead of opening a second page
 * to merge per-frame results: on the home and schools pages it ran the same rules with the same
 * passes and violations in about half the time (1.2–2.0 s against 2.4–3.9 s, measured).
 */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe violations (${state})`,
  ).toEqual([]);
}

/** A text field by its exact accessible name. */
export const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

/** A checkbox (e.g. an interest or use-case card) by its exact accessible name. */
export const checkbox = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });

/** Ticks an interest, types the email and submits the home waitlist form. */
export async function joinWaitlist(page: Page, email: string, interest = 'Use Podling'): Promise<void> {
  await checkbox(page, interest).check();
  await textbox(page, WAITLIST_FORM.emailLabel).fill(email);
  await page.getByRole('button', { name: WAITLIST_FORM.submitText }).click();
}

/** Requests this page sent to the storage service (the emulator), as `METHOD url`. */
export function watchStorageRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(EMULATOR_URL)) urls.push(`${request.method()} ${request.url()}`);
  });
  return urls;
}

/**
 * The bodies of the requests this page sent to the storage service (the emulator's API, or the
 * site's own relay and form endpoints), lookups included: what left the page, as text.
 */
export function watchStorageBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(EMULATOR_URL) && !/\/api\/(airtable|forms)\//.test(url)) return;
    // A lookup names the address in its query: decoded, so a check reads it as typed.
    bodies.push(request.postData() ?? decodeURIComponent(url.replace(/\+/g, ' ')));
  });
  return bodies;
}

/** The store listings are outside: answers them with a stub so a new tab opens without the internet. */
export async function stubStores(context: BrowserContext): Promise<void> {
  for (const pattern of ['https://apps.apple.com/**', 'https://play.google.com/**']) {
    await context.route(pattern, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Store</title>' }),
    );
  }
}

/**
 * Answers the video and calendar hosts with a tiny stand-in page instead of the fixture's block
 * (a blocked frame becomes a chrome-error page, where the fixture's consent init script throws),
 * while still recording each request as an outside one.
 */
export async function stubEmbedHosts(page: Page, network: NetworkLog): Promise<void> {
  await page.route(/^https:\/\/(www\.youtube-nocookie\.com|calendly\.com)\//, async (route) => {
    network.outside.push(route.request().url());
    await route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>Embed stand-in</title><p>Embed stand-in</p></html>',
    });
  });
}

/**
 * Answers the booking calendar's page locally with 204 (no content), so its frame keeps a blank
 * same-origin document and nothing leaves the machine. Takes `network` so the fixture's router is
 * set up first and this more specific route takes precedence.
 */
export async function stubCalendarWithNoContent(page: Page, network: NetworkLog): Promise<void> {
  void network;
  await page.route('https://calendly.com/**', (route) => route.fulfill({ status: 204 }));
}

/** The parameters of each `eventName` event react-ga4 queued for gtag, in order. */
export async function gtagEvents<T>(page: Page, eventName: string): Promise<T[]> {
  const params = await page.evaluate((name) => {
    const layer = (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? [];
    return layer
      .map((entry) => Array.from(entry as ArrayLike<unknown>))
      .filter((args) => args[0] === 'event' && args[1] === name)
      .map((args) => args[2]);
  }, eventName);
  return params as T[];
}

/** page_view hits react-ga4 queued for gtag, as [path, title] pairs. */
export async function pageViews(page: Page): Promise<[string, string][]> {
  const views = await gtagEvents<{ page_path?: string; page_title?: string } | undefined>(page, 'page_view');
  return views.map((params) => [params?.page_path ?? '', params?.page_title ?? '']);
}

export type QuoteEntry = {
  name: string;
  email: string;
  school: string;
  role: string;
  useCases: string[];
  other?: string;
};

/** Fills the quote form as a visitor would. */
export async function fillQuote(page: Page, entry: QuoteEntry): Promise<void> {
  await textbox(page, 'Your Name').fill(entry.name);
  await textbox(page, 'Email Address').fill(entry.email);
  await textbox(page, 'School/Institution Name').fill(entry.school);
  await textbox(page, 'Role').fill(entry.role);
  for (const label of entry.useCases) await checkbox(page, label).check();
  if (entry.other !== undefined) {
    await checkbox(page, 'Other').check();
    await textbox(page, 'Tell us how you would use it').fill(entry.other);
  }
}
