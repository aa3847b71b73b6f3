import type { Page, TestInfo } from '@playwright/test';
import { EMULATOR_URL, SITE_FLAGS_URL, SITE_URL } from './support/config.mjs';
import { emulatorRequestsSince, recordsFor } from './support/emulator.ts';
import { expect, expectConsoleErrors, type NetworkLog, test } from './support/fixtures.ts';
import { QUOTE_FORM, WAITLIST_FORM } from './support/forms.ts';
import { NOT_FOUND_PATH, SITE_PATHS } from './support/routes.ts';
import {
  checkbox,
  openForm,
  settle,
  stubCalendarWithNoContent,
  stubEmbedHosts,
  textbox,
  uniqueEmail,
  waitForHydration,
  watchStorageRequests,
} from './support/page.ts';

/**
 * Security headers, embeds and spam (issue 7): every route and journey runs under the site's
 * Content-Security-Policy (from the static host's _headers, as in production) with no
 * violation; the headers are all there; embedded frames carry a title, a referrer policy and
 * only the rights they need; and the honeypot is out of everyone's way but a bot's.
 */

const VIDEO_ORIGIN = 'https://www.youtube-nocookie.com';
const CALENDAR_ORIGIN = 'https://calendly.com';
const CALENDAR_TITLE = 'Book a 30-minute call with the Podling schools team';
const HONEYPOT_LABEL = 'Leave this field empty';
const HONEYPOT_NAME = 'company_website';

/** The rights each embed may have: exactly these, nothing more. */
const FRAME_RIGHTS: Record<string, { allow: string[]; sandbox: string[] | null }> = {
  [VIDEO_ORIGIN]: {
    allow: ['autoplay', 'encrypted-media', 'picture-in-picture', 'fullscreen'],
    sandbox: null,
  },
  [CALENDAR_ORIGIN]: {
    allow: [],
    sandbox: [
      'allow-scripts',
      'allow-same-origin',
      'allow-forms',
      'allow-popups',
      'allow-popups-to-escape-sandbox',
    ],
  },
};
/** Referrer policies that send no more than the origin to another site. */
const SAFE_REFERRER_POLICIES = ['no-referrer', 'origin', 'strict-origin', 'strict-origin-when-cross-origin'];

type Violation = { directive: string; blocked: string; source: string; sample: string };

/**
 * Records securitypolicyviolation events from the start of every document in the top frame
 * (embedded third-party frames have their own policies, not the site's).
 */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (window.top !== window) return;
    const log: unknown[] = [];
    (window as unknown as { __cspViolations: unknown[] }).__cspViolations = log;
    document.addEventListener('securitypolicyviolation', (event) => {
      log.push({
        directive: event.effectiveDirective || event.violatedDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
        sample: event.sample,
      });
    });
  });
}

async function violations(page: Page): Promise<Violation[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: Violation[] }).__cspViolations ?? []);
}

/** Lets the page settle (lazy chunks, idle work, analytics) before reading the violations. */
async function expectNoViolations(page: Page, network: NetworkLog, where: string): Promise<void> {
  await settle(page, network);
  expect(await violations(page), `CSP violations on ${where}`).toEqual([]);
}

/** Scrolls down a screen at a time, so everything that loads near the viewport loads. */
async function scrollThrough(page: Page): Promise<void> {
  for (let step = 0; step < 40; step += 1) {
    const atBottom = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    });
    // Two frames: what comes near the viewport is reported (and starts loading) after the first.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    if (atBottom) break;
  }
}

/** Every iframe on the page: a title, a referrer policy that keeps paths private, only its rights. */
async function expectFramesLockedDown(page: Page, expectedOrigins: string[]): Promise<void> {
  const frames = await page.locator('iframe').evaluateAll((nodes) =>
    nodes.map((node) => ({
      src: node.getAttribute('src'),
      title: node.getAttribute('title'),
      referrerPolicy: node.getAttribute('referrerpolicy'),
      allow: node.getAttribute('allow'),
      sandbox: node.getAttribute('sandbox'),
    })),
  );
  const originOf = (frame: (typeof frames)[number]) => (frame.src ? new URL(frame.src).origin : 'no address');
  expect(frames.map(originOf).sort()).toEqual([...expectedOrigins].sort());
  for (const frame of frames) {
    const origin = originOf(frame);
    const rights = FRAME_RIGHTS[origin];
    expect(rights, `an embed from ${origin} is expected`).toBeDefined();
    expect(frame.title?.trim(), `${origin} frame title`).toBeTruthy();
    expect(SAFE_REFERRER_POLICIES, `${origin} frame referrerpolicy`).toContain(frame.referrerPolicy);
    const allow = (frame.allow ?? '')
      .split(';')
      .map((item) => item.trim().split(/\s+/)[0])
      .filter(Boolean);
    expect(allow.sort(), `${origin} frame allow`).toEqual([...rights!.allow].sort());
    const sandbox = frame.sandbox === null ? null : frame.sandbox.split(/\s+/).filter(Boolean).sort();
    expect(sandbox, `${origin} frame sandbox`).toEqual(rights!.sandbox ? [...rights!.sandbox].sort() : null);
  }
}

/** An address for this spec's tests: `e2e.security-<tag>…@example.org`. */
const securityEmail = (testInfo: TestInfo, tag: string) =>
  uniqueEmail(testInfo, `e2e.security-${tag}`, 'example.org');

type SpamForm = {
  name: string;
  path: string;
  formSelector: string;
  fill: (page: Page, email: string) => Promise<void>;
  submit: (page: Page) => Promise<void>;
  expectSuccess: (page: Page) => Promise<void>;
  table: string;
  /** Where a keyboard user starts in the form, and the submit button Tab must reach. */
  firstField: string;
  submitText: string;
};

const SPAM_FORMS: SpamForm[] = [
  {
    name: WAITLIST_FORM.name,
    path: WAITLIST_FORM.path,
    formSelector: WAITLIST_FORM.formSelector,
    table: WAITLIST_FORM.table,
    firstField: WAITLIST_FORM.emailLabel,
    submitText: WAITLIST_FORM.submitText,
    fill: async (page, email) => {
      await checkbox(page, 'Use Podling').check();
      await textbox(page, WAITLIST_FORM.emailLabel).fill(email);
    },
    submit: (page) => page.getByRole('button', { name: WAITLIST_FORM.submitText }).click(),
    expectSuccess: async (page) => {
      await expect(page.getByRole('button', { name: WAITLIST_FORM.joinedText })).toBeVisible();
    },
  },
  {
    name: QUOTE_FORM.name,
    path: QUOTE_FORM.path,
    formSelector: QUOTE_FORM.formSelector,
    table: QUOTE_FORM.table,
    firstField: 'Your Name',
    submitText: QUOTE_FORM.submitText,
    fill: async (page, email) => {
      await textbox(page, 'Your Name').fill('Spam Bot');
      await textbox(page, QUOTE_FORM.emailLabel).fill(email);
      await textbox(page, 'School/Institution Name').fill('Bot Academy');
      await textbox(page, 'Role').fill('Bot');
      await checkbox(page, 'Practice Speaking').check();
    },
    submit: (page) => page.getByRole('button', { name: QUOTE_FORM.submitText }).click(),
    expectSuccess: async (page) => {
      await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();
      await expect(page.getByText(QUOTE_FORM.successToast)).toBeVisible();
    },
  },
];

test.describe('security headers', () => {
  for (const path of [...SITE_PATHS, NOT_FOUND_PATH]) {
    test(`${path} is served with the CSP and the other security headers`, async ({ request }) => {
      const response = await request.get(`${SITE_URL}${path}`);
      expect(response.status()).toBe(path === NOT_FOUND_PATH ? 404 : 200);
      const headers = response.headers();
      const csp = headers['content-security-policy'] ?? '';
      const directives = new Map(
        csp
          .split(';')
          .map((part) => part.trim().split(/\s+/))
          .filter((parts) => parts[0])
          .map(([name, ...values]) => [name!, values]),
      );
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
      expect(directives.get('script-src')).not.toContain("'unsafe-eval'");
      expect(directives.get('connect-src')).toContain(EMULATOR_URL);
      expect(directives.get('frame-src')?.sort()).toEqual([CALENDAR_ORIGIN, VIDEO_ORIGIN].sort());
      expect(SAFE_REFERRER_POLICIES).toContain(headers['referrer-policy']);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['permissions-policy']).toMatch(/camera=\(\)/);
      expect(headers['permissions-policy']).toMatch(/microphone=\(\)/);
      expect(headers['permissions-policy']).toMatch(/geolocation=\(\)/);
      // Deliberately absent: it starts every arrival in a cold renderer (docs/decisions/0003-no-coop-header.md).
      expect(headers['cross-origin-opener-policy']).toBeUndefined();
    });
  }
});

test.describe('every journey under the CSP, with no violation', () => {
  test.beforeEach(async ({ page, network }) => {
    void network; // the fixture's router first, so the stand-ins below take precedence
    await stubEmbedHosts(page, network);
    await recordViolations(page);
  });

  test('every route, scrolled to the bottom, with analytics consent', async ({
    page,
    visit,
    network,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const path of [...SITE_PATHS, NOT_FOUND_PATH]) {
      await visit(path, { consent: 'granted' });
      await waitForHydration(page);
      await scrollThrough(page);
      await expectNoViolations(page, network, path);
    }
    // The analytics stand-in was loaded (it is allowed by script-src) and the not-found page
    // answered 404, which the browser reports.
    expect(network.analyticsScript.length).toBeGreaterThan(0);
    expectConsoleErrors(consoleErrors, /status of 404/);
  });

  test('the recorder is live: a policy breach on the page is caught', async ({
    page,
    visit,
    consoleErrors,
  }) => {
    await visit('/about');
    await waitForHydration(page);
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true;';
      document.body.append(script);
    });
    await expect
      .poll(async () => (await violations(page)).map((v) => v.directive))
      .toContain('script-src-elem');
    expect(await page.evaluate(() => 'inlineRan' in window || '__inlineRan' in window)).toBe(false);
    expectConsoleErrors(consoleErrors, /Content Security Policy/);
  });

  test('client-side navigation through the header and footer links', async ({ page, visit, network }) => {
    await visit('/', { consent: 'granted' });
    await waitForHydration(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schools' }).click();
    await expect(page).toHaveURL(/\/schools$/);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy', exact: true }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expectNoViolations(page, network, 'client-side navigation');
  });

  for (const path of ['/', '/schools']) {
    test(`${path}: the video click loads the player under the CSP; the frame is locked down`, async ({
      page,
      visit,
      network,
    }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await visit(path);
      await waitForHydration(page);
      await page.getByRole('button', { name: /^Play video:/ }).click();
      await expect(page.frameLocator('.video-facade iframe').getByText('Embed stand-in')).toBeVisible();
      await expectNoViolations(page, network, `${path} after the video click`);
      expect(network.outside.every((url) => url.startsWith(`${VIDEO_ORIGIN}/embed/`))).toBe(true);
      // Only the player: the calendar's frame exists once it nears the viewport (next test).
      await expectFramesLockedDown(page, [VIDEO_ORIGIN]);
    });
  }

  test('/schools: the calendar loads as it scrolls into view; both frames are locked down', async ({
    page,
    visit,
    network,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit('/schools');
    await waitForHydration(page);
    await page.locator('.calendar-embed__box').scrollIntoViewIfNeeded();
    const calendar = page.getByTitle(CALENDAR_TITLE);
    await expect(calendar).toHaveAttribute('src', new RegExp(`^${CALENDAR_ORIGIN}/`));
    await expect(page.frameLocator('.calendar-embed iframe').getByText('Embed stand-in')).toBeVisible();
    await page.getByRole('button', { name: /^Play video:/ }).click();
    await expect(page.frameLocator('.video-facade iframe').getByText('Embed stand-in')).toBeVisible();
    await expectNoViolations(page, network, '/schools with the calendar and the video');
    await expectFramesLockedDown(page, [CALENDAR_ORIGIN, VIDEO_ORIGIN]);
    expect(network.outside.length).toBeGreaterThan(0);
  });

  test('the iOS-issue popup (flags build) opens and closes under the CSP', async ({
    page,
    visit,
    network,
  }) => {
    await visit('/', { base: SITE_FLAGS_URL });
    await waitForHydration(page);
    await page.getByRole('link', { name: /App Store/ }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectNoViolations(page, network, 'the iOS-issue popup');
  });

  for (const form of SPAM_FORMS) {
    test(`${form.name}: a successful submit under the CSP`, async ({
      page,
      visit,
      request,
      network,
    }, testInfo) => {
      const email = securityEmail(testInfo, 'csp');
      await openForm(page, visit, form.path, form.formSelector, { consent: 'granted' });
      await form.fill(page, email);
      await form.submit(page);
      await form.expectSuccess(page);
      await expectNoViolations(page, network, `${form.name} journey`);
      expect(await recordsFor(request, form.table, email)).toHaveLength(1);
    });
  }
});

test.describe('honeypot', () => {
  test.beforeEach(({ page, network }) => stubCalendarWithNoContent(page, network));

  for (const form of SPAM_FORMS) {
    test(`${form.name}: out of reach of the keyboard and assistive technology`, async ({ page, visit }) => {
      await openForm(page, visit, form.path, form.formSelector);
      const formLocator = page.locator(form.formSelector);
      const honeypot = formLocator.locator(`input[name="${HONEYPOT_NAME}"]`);
      await expect(honeypot).toHaveCount(1);
      await expect(honeypot).toHaveAttribute('tabindex', '-1');
      await expect(honeypot).toHaveAttribute('autocomplete', 'off');

      // Hidden from the accessibility tree: no role query finds it, and the form's snapshot omits it.
      await expect(page.getByRole('textbox', { name: HONEYPOT_LABEL })).toHaveCount(0);
      await expect(page.getByRole('textbox', { name: HONEYPOT_LABEL, includeHidden: true })).toHaveCount(1);
      expect(await formLocator.ariaSnapshot()).not.toContain(HONEYPOT_LABEL);

      // Tab from the first field to past the end of the form: the honeypot is never focused.
      await textbox(page, form.firstField).focus();
      const visited: string[] = [];
      for (let step = 0; step < 25; step += 1) {
        await page.keyboard.press('Tab');
        const focus = await page.evaluate((selector) => {
          const active = document.activeElement;
          return {
            inForm: active ? active.closest(selector) !== null : false,
            name: active?.getAttribute('name') ?? active?.textContent?.trim() ?? '',
          };
        }, form.formSelector);
        if (!focus.inForm) break;
        visited.push(focus.name);
      }
      expect(visited, 'Tab moved through the form to its submit button').toContain(form.submitText);
      expect(visited, 'Tab never reaches the honeypot').not.toContain(HONEYPOT_NAME);
      // It is off screen for sighted visitors too.
      const box = await honeypot.boundingBox();
      const viewport = page.viewportSize();
      const offScreen =
        box === null ||
        box.width <= 1 ||
        box.height <= 1 ||
        box.x + box.width <= 0 ||
        box.y + box.height <= 0 ||
        (viewport !== null && box.x >= viewport.width);
      expect(offScreen, 'the honeypot is not visible').toBe(true);
    });

    test(`${form.name}: filled in, a submit sends nothing and looks like success`, async ({
      page,
      visit,
      request,
      network,
    }, testInfo) => {
      const email = securityEmail(testInfo, 'honeypot');
      const pageRequests = watchStorageRequests(page);
      // The emulator's log is shared with the other workers: should one of their requests land
      // in the window, measure again. A submit that does send always adds to the log, so a
      // retry can never hide one.
      await expect(async () => {
        await openForm(page, visit, form.path, form.formSelector);
        await form.fill(page, email);
        await page.evaluate(
          ({ selector, name }) => {
            const input = document
              .querySelector(selector)
              ?.querySelector<HTMLInputElement>(`[name="${name}"]`);
            if (!input) throw new Error('no honeypot');
            input.value = 'https://spam.example/buy-now';
          },
          { selector: form.formSelector, name: HONEYPOT_NAME },
        );
        const before = Date.now();
        await form.submit(page);
        await form.expectSuccess(page);
        await settle(page, network); // room for any request the submit might still start
        expect(pageRequests, 'the page sent nothing to the storage service').toEqual([]);
        expect(await emulatorRequestsSince(request, before), 'the emulator received nothing').toEqual([]);
      }).toPass({ timeout: 30_000, intervals: [250, 500, 1_000] });
      expect(await recordsFor(request, form.table, email)).toEqual([]);
    });
  }
});
