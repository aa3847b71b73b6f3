import type { Page } from '@playwright/test';
import { EMULATOR_URL } from './support/config.mjs';
import {
  addFault,
  expectOnlyTheFixedAddressSent,
  QUOTES_TABLE,
  recordsFor,
  seedRecord,
  type StoredRecord,
} from './support/emulator.ts';
import { expect, expectConsoleErrors, test } from './support/fixtures.ts';
import { FAILURE_TOAST, INVALID_EMAIL, QUOTE_FORM } from './support/forms.ts';
import {
  checkbox,
  fillQuote,
  expectNoAxeViolations,
  openSchoolsPage,
  type QuoteEntry,
  stubCalendarWithNoContent,
  textbox,
  uniqueEmail,
  watchStorageBodies,
} from './support/page.ts';

// The spec's exact strings (sections 4, 5 and 8).
const TEXT = {
  invalidEmail: INVALID_EMAIL,
  failureToast: FAILURE_TOAST,
  successToast: QUOTE_FORM.successToast,
  thankYouTitle: QUOTE_FORM.thankYouTitle,
  thankYouBody: "We've received your request and will be in touch shortly.",
} as const;

/** The schools' domain: the repeat test changes its case. */
const SCHOOL_DOMAIN = 'oakfield.sch.uk';

const field = textbox;
const useCase = checkbox;
const submitButton = (page: Page) => page.getByRole('button', { name: QUOTE_FORM.submitText });

const isoTime = (value: unknown) => new Date(String(value)).getTime();

// Scrolling to the form brings the booking calendar near the viewport, so its frame asks for the
// calendar page. Answer locally with 204 (no content): nothing leaves the machine and the frame
// keeps its blank, same-origin document. Any cross-site document there would run the fixtures'
// consent init script, which cannot read localStorage in a third-party frame and so reports an
// error. (The calendar's own loading is covered by the widget tests.)
test.beforeEach(({ page, network }) => stubCalendarWithNoContent(page, network));

test.describe('schools quote form', () => {
  test('stores a quote request field by field and thanks the visitor', async ({
    page,
    visit,
    request,
    network,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.create', SCHOOL_DOMAIN);
    await openSchoolsPage(page, visit);
    await expectNoAxeViolations(page, 'idle');

    await fillQuote(page, {
      name: 'Priya Shah',
      email: email.toUpperCase(),
      school: 'Oakfield Primary School',
      role: 'Deputy Head',
      useCases: ['Support Learners', 'Showcase Creativity'],
      other: '  Weekly radio show for parents  ',
    });
    const before = Date.now();
    await submitButton(page).click();

    const thankYou = page.getByRole('heading', { name: TEXT.thankYouTitle });
    await expect(thankYou).toBeVisible();
    await expect(thankYou).toBeFocused();
    await expect(page.getByText(TEXT.thankYouBody)).toBeVisible();
    await expect(page.getByText(TEXT.successToast)).toBeVisible();
    const after = Date.now();

    // The form is gone; the use-case cards stay, locked, showing the choice.
    await expect(field(page, 'Your Name')).toHaveCount(0);
    await expect(submitButton(page)).toHaveCount(0);
    for (const label of ['Support Learners', 'Practice Speaking', 'Showcase Creativity', 'Other']) {
      await expect(useCase(page, label)).toBeDisabled();
    }
    await expect(useCase(page, 'Support Learners')).toBeChecked();
    await expect(useCase(page, 'Practice Speaking')).not.toBeChecked();

    const records = await recordsFor(request, QUOTES_TABLE, email);
    expect(records).toHaveLength(1);
    const { fields } = records[0] as StoredRecord;
    expect(fields.Email).toBe(email.toLowerCase());
    expect(fields['Contact Name']).toBe('Priya Shah');
    expect(fields['School Name']).toBe('Oakfield Primary School');
    expect(fields.Role).toBe('Deputy Head');
    expect(fields['Use Cases']).toEqual([
      'Support Learners',
      'Showcase Creativity',
      'Other: Weekly radio show for parents',
    ]);
    expect(fields['Other Use Case']).toBe('Weekly radio show for parents');
    expect(fields.Status).toBe('New');
    expect(isoTime(fields['Created At'])).toBeGreaterThanOrEqual(before - 1000);
    expect(isoTime(fields['Created At'])).toBeLessThanOrEqual(after + 1000);
    expect(fields['Last Updated']).toBe(fields['Created At']);

    await expectNoAxeViolations(page, 'submitted');
    expect(network.outside).toEqual([]);
  });

  test('a repeat email updates its record: Created At kept, Last Updated moved, Status back to New', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.repeat', SCHOOL_DOMAIN);
    const createdAt = '2025-01-15T09:30:00.000Z';
    const seeded = await seedRecord(request, QUOTES_TABLE, {
      Email: email,
      'Contact Name': 'Sam Carter',
      'School Name': 'Oakfield Primary',
      Role: 'Teacher',
      'Use Cases': ['Practice Speaking'],
      'Other Use Case': 'Old idea',
      'Created At': createdAt,
      'Last Updated': createdAt,
      Status: 'Quoted',
    });

    await openSchoolsPage(page, visit);
    await fillQuote(page, {
      name: 'Sam Carter-Jones',
      email: `  ${email.replace('oakfield', 'OAKFIELD')}  `,
      school: 'Oakfield Primary Academy',
      role: 'Head of English',
      useCases: ['Support Learners'],
    });
    const before = Date.now();
    await submitButton(page).click();
    await expect(page.getByRole('heading', { name: TEXT.thankYouTitle })).toBeVisible();

    const records = await recordsFor(request, QUOTES_TABLE, email);
    expect(records).toHaveLength(1);
    const record = records[0] as StoredRecord;
    expect(record.id).toBe(seeded.id);
    expect(record.fields['Created At']).toBe(createdAt);
    expect(isoTime(record.fields['Last Updated'])).toBeGreaterThanOrEqual(before - 1000);
    expect(record.fields.Status).toBe('New');
    expect(record.fields['Contact Name']).toBe('Sam Carter-Jones');
    expect(record.fields['School Name']).toBe('Oakfield Primary Academy');
    expect(record.fields.Role).toBe('Head of English');
    expect(record.fields['Use Cases']).toEqual(['Support Learners']);
    expect(record.fields['Other Use Case'] ?? '').toBe('');
  });

  test('a second visit with the same email keeps one record and moves only Last Updated', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.twice', SCHOOL_DOMAIN);
    const entry: QuoteEntry = {
      name: 'Ada Okafor',
      email,
      school: 'Riverside Juniors',
      role: 'SENCo',
      useCases: ['Practice Speaking'],
    };
    await openSchoolsPage(page, visit);
    await fillQuote(page, entry);
    await submitButton(page).click();
    await expect(page.getByRole('heading', { name: TEXT.thankYouTitle })).toBeVisible();
    const [first] = await recordsFor(request, QUOTES_TABLE, email);
    expect(first).toBeDefined();

    await openSchoolsPage(page, visit);
    await fillQuote(page, { ...entry, useCases: ['Practice Speaking', 'Support Learners'] });
    await submitButton(page).click();
    await expect(page.getByRole('heading', { name: TEXT.thankYouTitle })).toBeVisible();

    const records = await recordsFor(request, QUOTES_TABLE, email);
    expect(records).toHaveLength(1);
    const second = records[0] as StoredRecord;
    expect(second.fields['Created At']).toBe(first?.fields['Created At']);
    expect(isoTime(second.fields['Last Updated'])).toBeGreaterThan(isoTime(first?.fields['Last Updated']));
    expect(second.fields['Use Cases']).toEqual(['Support Learners', 'Practice Speaking']);
  });

  test('an invalid email shows the message under the field, tied to it, and sends nothing', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.invalid', SCHOOL_DOMAIN).replace('@', '@@');
    await openSchoolsPage(page, visit);
    const emailInput = field(page, 'Email Address');
    await emailInput.fill(email);
    await emailInput.blur();
    const message = page.getByText(TEXT.invalidEmail);
    await expect(message).toBeVisible();
    await expect(emailInput).toHaveAttribute('aria-invalid', 'true');
    await expect(emailInput).toHaveAccessibleDescription(TEXT.invalidEmail);
    await expectNoAxeViolations(page, 'email error');

    const sent = watchStorageBodies(page);
    await submitButton(page).click();
    await expect(emailInput).toBeFocused();

    const valid = email.replace('@@', '@');
    await emailInput.fill(valid);
    await expect(message).toHaveCount(0);
    await expect(emailInput).not.toHaveAttribute('aria-invalid', 'true');
    // Submissions go one at a time: once the fixed address is stored, the press above has had
    // every chance to send the invalid one.
    await fillQuote(page, {
      name: 'Lee Park',
      email: valid,
      school: 'Hillside Primary',
      role: 'Teacher',
      useCases: [],
    });
    await submitButton(page).click();
    await expect(page.getByRole('heading', { name: TEXT.thankYouTitle })).toBeVisible();
    await expectOnlyTheFixedAddressSent(request, QUOTES_TABLE, sent, { refused: email, fixed: valid });
  });

  test('a double click sends one request', async ({ page, visit, request }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.double', SCHOOL_DOMAIN);
    await openSchoolsPage(page, visit);
    await fillQuote(page, {
      name: 'Lee Park',
      email,
      school: 'Hillside Primary',
      role: 'Computing Lead',
      useCases: [],
    });
    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(EMULATOR_URL) && req.method() === 'POST') posts.push(req.url());
    });
    await submitButton(page).dblclick();
    await expect(page.getByRole('heading', { name: TEXT.thankYouTitle })).toBeVisible();
    expect(await recordsFor(request, QUOTES_TABLE, email)).toHaveLength(1);
    expect(posts.filter((url) => !url.endsWith('/listRecords'))).toHaveLength(1);
  });
});

test.describe('schools quote form failure', () => {
  // Faults are global to the shared emulator: scope them to this table and run these in order.
  test.describe.configure({ mode: 'serial' });

  test('a storage failure shows the toast and keeps the form as typed; a retry then succeeds', async ({
    page,
    visit,
    request,
    consoleErrors,
  }, testInfo) => {
    const email = uniqueEmail(testInfo, 'e2e.fault', SCHOOL_DOMAIN);
    await openSchoolsPage(page, visit);
    const entry: QuoteEntry = {
      name: 'Grace Mensah',
      email,
      school: 'St Mary’s C of E Primary',
      role: 'Assistant Head',
      useCases: ['Practice Speaking'],
      other: 'Transition projects',
    };
    await fillQuote(page, entry);

    // airtable.js does not retry a 500, so one fault fails exactly this submit.
    await addFault(request, { status: 500, count: 1, table: QUOTES_TABLE, match: email });
    await submitButton(page).click();

    await expect(page.getByText(TEXT.failureToast)).toBeVisible();
    await expect(page.getByRole('heading', { name: TEXT.thankYouTitle })).toHaveCount(0);
    await expect(field(page, 'Your Name')).toHaveValue(entry.name);
    await expect(field(page, 'Email Address')).toHaveValue(entry.email);
    await expect(field(page, 'School/Institution Name')).toHaveValue(entry.school);
    await expect(field(page, 'Role')).toHaveValue(entry.role);
    await expect(useCase(page, 'Practice Speaking')).toBeChecked();
    await expect(useCase(page, 'Other')).toBeChecked();
    await expect(field(page, 'Tell us how you would use it')).toHaveValue('Transition projects');
    await expect(submitButton(page)).toBeEnabled();
    expect(await recordsFor(request, QUOTES_TABLE, email)).toEqual([]);
    await expectNoAxeViolations(page, 'failure');

    expectConsoleErrors(consoleErrors, /status of 500/);
    expectConsoleErrors(consoleErrors, /Quote request failed/);

    // Still editable: change a card and send again.
    await useCase(page, 'Support Learners').check();
    await submitButton(page).click();
    await expect(page.getByRole('heading', { name: TEXT.thankYouTitle })).toBeVisible();
    const [record] = await recordsFor(request, QUOTES_TABLE, email);
    expect(record?.fields['Use Cases']).toEqual([
      'Support Learners',
      'Practice Speaking',
      'Other: Transition projects',
    ]);
  });
});

test.describe('schools page hero buttons', () => {
  test("'Get a Quote' scrolls to the form and focuses its first field", async ({ page, visit }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openSchoolsPage(page, visit);
    const firstField = field(page, 'Your Name');
    await expect(firstField).not.toBeInViewport();
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    await expect(firstField).toBeFocused();
    await expect(firstField).toBeInViewport();
    await expect(page.getByRole('heading', { level: 2, name: 'Get a Quote' })).toBeInViewport();
    // The heading lands below the fixed header, not under it.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const header = document.querySelector('header.site-header')?.getBoundingClientRect();
          const heading = document.getElementById('get-a-quote-heading')?.getBoundingClientRect();
          return header && heading ? heading.top - header.bottom : -1;
        }),
      )
      .toBeGreaterThanOrEqual(0);
  });

  test("'Learn More' scrolls to the benefits", async ({ page, visit }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openSchoolsPage(page, visit);
    const heading = page.getByRole('heading', { level: 2, name: 'Why Schools Choose Podling' });
    await expect(heading).not.toBeInViewport();
    await page.getByRole('button', { name: 'Learn More' }).click();
    await expect(heading).toBeInViewport();
    await expect(heading).toBeFocused();
  });

  test('under reduced motion the jump is instant', async ({ page, visit }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await openSchoolsPage(page, visit);
    await page.getByRole('button', { name: 'Get a Quote' }).click();
    const top = await page.evaluate(
      () => document.getElementById('get-a-quote')?.getBoundingClientRect().top ?? Infinity,
    );
    expect(top).toBeLessThan(800);
    await expect(field(page, 'Your Name')).toBeFocused();
  });
});
