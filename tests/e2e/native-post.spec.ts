import { RELAY_EMULATOR_URL as AIRTABLE, SITE_RELAY_URL } from './support/config.mjs';
import { QUOTES_TABLE, recordsFor, storedRecordsFor, WAITLIST_TABLE } from './support/emulator.ts';
import { expect, test } from './support/fixtures.ts';
import { FAILURE_TOAST, INVALID_EMAIL, QUOTE_FORM, WAITLIST_FORM } from './support/forms.ts';
import { checkbox, textbox, uniqueEmail } from './support/page.ts';
import { FORMS } from '#src/lib/forms/forms.ts';

/**
 * With JavaScript off (blocked by a school's filter, or not arrived), both forms are plain HTML
 * forms on the relay-mode build: the browser posts them, the request check decides, and the answer
 * is a full page. Every outcome: stored, a bad email with every value kept, the bot trap, a limit.
 */
test.use({ javaScriptEnabled: false });

const open = async (page: import('@playwright/test').Page, path: string) => {
  await page.goto(new URL(path, SITE_RELAY_URL).toString());
};

test('the waitlist form posts itself and the confirmation page says so; the sign-up is stored', async ({
  page,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo, 'e2e.native-join');
  await open(page, '/');
  await checkbox(page, 'Invest in Podling').check();
  await textbox(page, WAITLIST_FORM.emailLabel).fill(email);
  await page.getByRole('button', { name: WAITLIST_FORM.submitText }).click();
  await expect(page.getByText(WAITLIST_FORM.joinedText)).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  const [record] = await storedRecordsFor(request, WAITLIST_TABLE, email, AIRTABLE);
  expect(record?.fields).toMatchObject({ Interests: ['Invest in Podling'], 'Page Source': 'home' });
});

test('a bad email comes back with the spec’s message at the field, a summary linking to it, and every value kept', async ({
  page,
  request,
}) => {
  await open(page, '/schools');
  await textbox(page, 'Your Name').fill('Ada <Lovelace>');
  await textbox(page, QUOTE_FORM.emailLabel).fill('head@@school');
  await textbox(page, 'School/Institution Name').fill('Hill "Primary" School');
  await textbox(page, 'Role').fill('Head teacher');
  await checkbox(page, 'Practice Speaking').check();
  await checkbox(page, 'Other').check();
  await textbox(page, 'Tell us how you would use it').fill('Assemblies & clubs');
  await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();

  const summary = page.getByRole('alert');
  await expect(summary).toContainText('There is a problem');
  await expect(summary.getByRole('link', { name: INVALID_EMAIL })).toBeVisible();
  const email = textbox(page, QUOTE_FORM.emailLabel);
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(new RegExp(INVALID_EMAIL));
  await expect(email).toHaveValue('head@@school');
  await expect(textbox(page, 'Your Name')).toHaveValue('Ada <Lovelace>');
  await expect(textbox(page, 'School/Institution Name')).toHaveValue('Hill "Primary" School');
  await expect(textbox(page, 'Role')).toHaveValue('Head teacher');
  await expect(checkbox(page, 'Practice Speaking')).toBeChecked();
  await expect(checkbox(page, 'Support Learners')).not.toBeChecked();
  await expect(textbox(page, 'Tell us how you would use it')).toHaveValue('Assemblies & clubs');

  // The summary's link takes the visitor to the field; fixed, the form posts again and is stored.
  await summary.getByRole('link', { name: INVALID_EMAIL }).click();
  await expect(email).toBeFocused();
  await email.fill('head@hill-primary.sch.uk');
  await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
  await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();
  const [record] = await storedRecordsFor(request, QUOTES_TABLE, 'head@hill-primary.sch.uk', AIRTABLE);
  expect(record?.fields).toMatchObject({
    'Contact Name': 'Ada <Lovelace>',
    'Use Cases': ['Practice Speaking', 'Other: Assemblies & clubs'],
    'Other Use Case': 'Assemblies & clubs',
    Status: 'New',
  });
});

test('a bot that fills the trap gets the same confirmation, and nothing is stored', async ({
  page,
  request,
}, testInfo) => {
  const email = uniqueEmail(testInfo, 'e2e.native-bot');
  await open(page, '/');
  await textbox(page, WAITLIST_FORM.emailLabel).fill(email);
  await page.locator('input[name="company_website"]').fill('https://spam.example', { force: true });
  await page.getByRole('button', { name: WAITLIST_FORM.submitText }).click();
  await expect(page.getByText(WAITLIST_FORM.joinedText)).toBeVisible();
  expect(await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE)).toEqual([]);
});

test('over the per-address limit, the form comes back with the spec’s failure message and every value kept', async ({
  page,
  request,
}, testInfo) => {
  for (let i = 0; i < 10; i += 1) {
    const answer = await request.post(`${SITE_RELAY_URL}/api/forms/waitlist`, {
      form: { email: 'not-an-email' },
      headers: { origin: SITE_RELAY_URL },
    });
    expect(answer.status()).toBe(422);
  }
  const email = uniqueEmail(testInfo, 'e2e.native-limited');
  await open(page, '/');
  await checkbox(page, 'Use Podling').check();
  await textbox(page, WAITLIST_FORM.emailLabel).fill(email);
  await page.getByRole('button', { name: WAITLIST_FORM.submitText }).click();
  await expect(page.getByRole('alert')).toContainText(FAILURE_TOAST);
  await expect(textbox(page, WAITLIST_FORM.emailLabel)).toHaveValue(email);
  await expect(checkbox(page, 'Use Podling')).toBeChecked();
  expect(await recordsFor(request, WAITLIST_TABLE, email, AIRTABLE)).toEqual([]);
});

test('a posted line break reaches no one-line field: stored as a space; the Other text keeps its lines, its Use Cases item one line (issue 56)', async ({
  request,
}, testInfo) => {
  // The page's boxes take no line break; a script posting the form, as curl does, sends them.
  const email = uniqueEmail(testInfo, 'e2e.native-crlf');
  const answer = await request.post(`${SITE_RELAY_URL}${FORMS.quote.path}`, {
    form: {
      email,
      contactName: 'Eve\r\nBcc: attacker@evil.example',
      schoolName: 'Hill\r\nSchool',
      useCases: 'other',
      otherUseCase: 'Assemblies\r\nEmail: forged@evil.example',
    },
    headers: { origin: SITE_RELAY_URL },
  });
  expect(answer.ok()).toBe(true);
  expect(await answer.text()).toContain(QUOTE_FORM.thankYouTitle);
  const [record] = await storedRecordsFor(request, QUOTES_TABLE, email, AIRTABLE);
  expect(record?.fields).toMatchObject({
    'Contact Name': 'Eve Bcc: attacker@evil.example',
    'School Name': 'Hill School',
    'Other Use Case': 'Assemblies\nEmail: forged@evil.example',
    'Use Cases': ['Other: Assemblies Email: forged@evil.example'],
  });
});
