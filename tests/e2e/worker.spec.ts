import { WORKER_EMULATOR_URL, WORKER_URL } from './support/config.mjs';
import { recordsFor, WAITLIST_TABLE } from './support/emulator.ts';
import { expect, expectConsoleErrors, test } from './support/fixtures.ts';
import { WAITLIST_FORM } from './support/forms.ts';
import { joinWaitlist, openForm, uniqueEmail } from './support/page.ts';

/**
 * The reference deploy in Chromium: `wrangler dev` (workerd) serving the built site with the
 * relay in queued mode; the queue's consumer writes to this Worker's own emulator.
 */
test('a sign-up in the browser is answered at once and its queue consumer stores it', async ({
  page,
  visit,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo, 'e2e.worker-join');
  await openForm(page, visit, '/', WAITLIST_FORM.formSelector, { base: WORKER_URL });
  await joinWaitlist(page, email, 'Invest in Podling');
  await expect(page.getByRole('button', { name: WAITLIST_FORM.joinedText })).toBeVisible();
  await expect
    .poll(async () => (await recordsFor(request, WAITLIST_TABLE, email, WORKER_EMULATOR_URL)).length, {
      timeout: 30_000,
    })
    .toBe(1);
  const [record] = await recordsFor(request, WAITLIST_TABLE, email, WORKER_EMULATOR_URL);
  expect(record?.fields).toMatchObject({ Interests: ['Invest in Podling'], 'Page Source': 'home' });
});

test('an unknown path gets the not-found page with status 404 and the _headers headers', async ({
  page,
  consoleErrors,
}) => {
  const response = await page.goto(`${WORKER_URL}/no-such-page`);
  expect(response?.status()).toBe(404);
  expect(response?.headers()['x-frame-options']).toBe('DENY');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('This page is on mute');
  expectConsoleErrors(consoleErrors, /404/);
});
