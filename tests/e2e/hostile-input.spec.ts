import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import {
  allRecords,
  QUOTES_TABLE,
  recordsFor,
  seedRecord,
  storedEmail,
  WAITLIST_TABLE,
  type StoredRecord,
} from './support/emulator.ts';
import { withoutBidiControls } from '#src/lib/forms/contract.ts';
import { expect, test } from './support/fixtures.ts';
import { INVALID_EMAIL, QUOTE_FORM, WAITLIST_FORM } from './support/forms.ts';
import {
  checkbox,
  openHome,
  openSchoolsPage,
  stubCalendarWithNoContent,
  textbox,
  uniqueEmail,
  uniqueToken,
  watchStorageBodies,
} from './support/page.ts';

/**
 * Hostile input in the browser (issue 7): every text field of both forms takes very long input,
 * emoji, right-to-left text, HTML and script fragments and Airtable formula fragments without
 * breaking the page, the existing-record lookup or the stored value. Values are stored as typed
 * (the email trimmed and lower-cased, the Other text trimmed: spec sections 3 and 5) and only
 * ever rendered as text.
 */

/** The Other box's maxlength: longer input is cut there by the browser, before the app sees it. */
const OTHER_MAX_LENGTH = 500;

/** Payloads that would run if any value reached the DOM as markup; each sets a marker too. */
const XSS = {
  img: '<img src=x onerror="window.__xss=1;alert(1)">',
  script: '</script><script>window.__xss=1;alert(1)</script>',
  svg: '<svg/onload="window.__xss=1;alert(1)">&lt;b&gt;&amp;',
  frame: '"><iframe src="javascript:window.__xss=1;alert(1)"></iframe>',
} as const;

/** Fragments that would change the lookup formula's meaning if they were not escaped. */
const FORMULA = {
  orTrue: "') OR TRUE() OR ('",
  backslashes: 'C:\\Schools\\ \\\\ end\\',
  field: '{Email}',
  quotes: `"); DELETE({Email}); ('\\'`,
} as const;

/**
 * Addresses the email rule (5–254 characters, local part at most 64) accepts, each unique.
 * Quote characters, braces, ampersands and plus signs are all legal in a local part.
 */
type EmailCase = { name: string; make: (worker: number) => string; length?: number };

const VALID_EMAILS = {
  apostrophe: {
    name: "an apostrophe and a plus (o'brien+test)",
    make: (w) => `o'brien+test.w${w}.${uniqueToken()}@example.com`,
  },
  formula: {
    name: 'formula fragments in the local part',
    make: (w) => `x'&{Email}&'}{w${w}.${uniqueToken()}@example.com`,
  },
  longest: {
    name: 'exactly 254 characters with a 64-character local part',
    make: (w) => {
      const local = `max.w${w}.${uniqueToken()}.`.padEnd(64, 'l');
      const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(55)}.co.uk`;
      return `${local}@${domain}`; // 64 + 1 + 189
    },
    length: 254,
  },
  // Unique per run only: a repeat within the run just updates the same record.
  shortest: { name: 'the shortest, 5 characters', make: () => 'a@b.c', length: 5 },
  padded: {
    name: 'mixed case with surrounding spaces',
    make: (w) => `  O'Neill.W${w}.${uniqueToken().toUpperCase()}@Example.CO.UK  `,
  },
  rtl: {
    name: 'right-to-left letters in the local part',
    make: (w) => `مريم.w${w}.${uniqueToken()}@example.com`,
  },
} satisfies Record<string, EmailCase>;

/** Addresses the rule refuses: nothing may be sent, and the message shows as text. */
const REFUSED_EMAILS: { name: string; value: string }[] = [
  { name: 'a backslash', value: 'back\\slash@example.com' },
  { name: 'markup', value: `${XSS.img}@example.com` },
  { name: 'a 65-character local part', value: `${'l'.repeat(65)}@example.com` },
  {
    name: '255 characters',
    value: `${'l'.repeat(57)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.co.uk`,
  },
];

type QuoteValues = { name: string; school: string; role: string; other: string };

/** One row per kind of hostile text; each also brings one of the valid emails. */
const QUOTE_CASES: { name: string; email: EmailCase; values: QuoteValues }[] = [
  {
    name: 'very long input',
    email: VALID_EMAILS.longest,
    values: {
      name: 'Ada Lovelace '.repeat(385).slice(0, 4_999) + 'Z',
      school: 'Ü'.repeat(2_500) + '🏫'.repeat(1_250),
      role: 'r'.repeat(5_000),
      other: 'o'.repeat(OTHER_MAX_LENGTH + 100),
    },
  },
  {
    name: 'emoji and right-to-left text',
    email: VALID_EMAILS.rtl,
    values: {
      name: 'Zoë 👩🏽‍🏫 مريم الحسن',
      school: 'مدرسة النور 🏫 בית ספר הדר',
      role: '\u202Eevil\u202C Head of 🎧 Oracy',
      other: '  🎙️ قصص  وحكايات 👨‍👩‍👧  ',
    },
  },
  {
    name: 'HTML and script fragments',
    email: VALID_EMAILS.apostrophe,
    values: { name: XSS.img, school: XSS.script, role: XSS.svg, other: XSS.frame },
  },
  {
    name: 'Airtable formula fragments',
    email: VALID_EMAILS.formula,
    values: { name: FORMULA.orTrue, school: FORMULA.backslashes, role: FORMULA.field, other: FORMULA.quotes },
  },
];

/** A record that a formula injected through the lookup would match (and the app would overwrite). */
async function seedDecoy(
  request: APIRequestContext,
  table: string,
  testInfo: TestInfo,
): Promise<StoredRecord> {
  const fields =
    table === WAITLIST_TABLE
      ? { Email: uniqueEmail(testInfo, 'decoy', 'example.com'), Interests: ['General Interest'] }
      : {
          Email: uniqueEmail(testInfo, 'decoy', 'example.com'),
          'Contact Name': 'Decoy',
          'School Name': 'Decoy School',
          'Use Cases': ['Practice Speaking'],
          Status: 'Quoted',
        };
  return seedRecord(request, table, fields);
}

async function expectDecoyUntouched(request: APIRequestContext, table: string, decoy: StoredRecord) {
  const now = (await allRecords(request, table)).find((record) => record.id === decoy.id);
  expect(now, 'the decoy record is still there, unchanged').toEqual(decoy);
}

/** Records dialogs (there must be none) and dismisses them so the page carries on. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

/** Nothing typed reached the DOM as markup: no payload element, handler attribute or marker. */
async function expectNothingInjected(page: Page, dialogs: string[]): Promise<void> {
  const found = await page.evaluate(() => ({
    marker: (window as unknown as { __xss?: unknown }).__xss ?? null,
    payloadElements: document.querySelectorAll('img[src="x"], iframe[src^="javascript"], svg[onload]').length,
    inlineScripts: [...document.querySelectorAll('script:not([src])')].filter((script) =>
      (script.textContent ?? '').includes('__xss'),
    ).length,
    handlerAttributes: [...document.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((a) => a.name),
    ),
  }));
  expect(found).toEqual({ marker: null, payloadElements: 0, inlineScripts: 0, handlerAttributes: [] });
  expect(dialogs, 'no dialog opened').toEqual([]);
}

// The schools page's calendar frame asks for its page once the form is in view: answer it
// locally (no content), so nothing leaves the machine and no cross-site document loads.
test.beforeEach(({ page, network }) => stubCalendarWithNoContent(page, network));

test.describe('waitlist form: hostile emails', () => {
  for (const { name, make, length } of Object.values<EmailCase>(VALID_EMAILS)) {
    test(`${name}: stored as typed, found again by the lookup`, async ({
      page,
      visit,
      request,
    }, testInfo) => {
      const email = make(testInfo.workerIndex);
      if (length !== undefined) expect(email).toHaveLength(length);
      const decoy = await seedDecoy(request, WAITLIST_TABLE, testInfo);
      const dialogs = watchDialogs(page);
      const emailField = textbox(page, WAITLIST_FORM.emailLabel);
      const joined = page.getByRole('button', { name: WAITLIST_FORM.joinedText });

      const ids: string[] = [];
      for (const interest of ['Use Podling', 'Invest in Podling']) {
        await openHome(page, visit);
        await emailField.fill(email);
        // type="email" drops surrounding spaces from the value; the rest is kept exactly.
        await expect(emailField).toHaveValue(email.trim());
        await checkbox(page, interest).check();
        await page.getByRole('button', { name: WAITLIST_FORM.submitText }).click();
        await expect(joined).toBeVisible();
        await expectNothingInjected(page, dialogs);

        const records = await recordsFor(request, WAITLIST_TABLE, email);
        expect(records, 'exactly one record for the email').toHaveLength(1);
        expect(records[0]!.fields.Email).toBe(storedEmail(email));
        expect(records[0]!.fields.Interests).toEqual([interest]);
        ids.push(records[0]!.id);
      }
      // The second sign-up found the first record (the lookup matched the hostile address).
      expect(ids[1]).toBe(ids[0]);
      await expectDecoyUntouched(request, WAITLIST_TABLE, decoy);
    });
  }

  test('addresses the rule refuses show the message as text and send nothing', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const dialogs = watchDialogs(page);
    const sent = watchStorageBodies(page);
    await openHome(page, visit);
    const emailField = textbox(page, WAITLIST_FORM.emailLabel);
    for (const { name, value } of REFUSED_EMAILS) {
      await emailField.fill(value);
      await emailField.press('Enter');
      await expect(page.getByText(INVALID_EMAIL), name).toBeVisible();
      await expect(emailField, name).toHaveValue(value);
      await expect(emailField, name).toBeFocused();
    }
    await expectNothingInjected(page, dialogs);
    // Submissions go one at a time: once a valid address is stored, every press above has had
    // its chance to send, and each request sent names the valid address alone.
    const valid = uniqueEmail(testInfo, 'e2e.hostile-after-refused');
    await emailField.fill(valid);
    await emailField.press('Enter');
    await expect(page.getByRole('button', { name: WAITLIST_FORM.joinedText })).toBeVisible();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((body) => !body.toLowerCase().includes(storedEmail(valid)))).toEqual([]);
    expect(await recordsFor(request, WAITLIST_TABLE, valid)).toHaveLength(1);
  });
});

test.describe('quote form: hostile text in every field', () => {
  for (const { name, email: emailCase, values } of QUOTE_CASES) {
    test(`${name}: stored as typed but for bidirectional controls (trimmed where the spec says), rendered as text, found again`, async ({
      page,
      visit,
      request,
    }, testInfo) => {
      const email = emailCase.make(testInfo.workerIndex);
      const decoy = await seedDecoy(request, QUOTES_TABLE, testInfo);
      const dialogs = watchDialogs(page);
      // What the Other box holds: the browser stops at its maxlength (in UTF-16 units).
      const otherKept = values.other.slice(0, OTHER_MAX_LENGTH);

      const ids: string[] = [];
      for (const useCase of ['Support Learners', 'Practice Speaking']) {
        await openSchoolsPage(page, visit);
        await textbox(page, 'Your Name').fill(values.name);
        await textbox(page, 'Email Address').fill(email);
        await textbox(page, 'School/Institution Name').fill(values.school);
        await textbox(page, 'Role').fill(values.role);
        await checkbox(page, useCase).check();
        await checkbox(page, 'Other').check();
        await textbox(page, 'Tell us how you would use it').fill(values.other);

        // The page shows exactly what was typed, as text in the fields.
        await expect(textbox(page, 'Your Name')).toHaveValue(values.name);
        await expect(textbox(page, 'School/Institution Name')).toHaveValue(values.school);
        await expect(textbox(page, 'Role')).toHaveValue(values.role);
        await expect(textbox(page, 'Tell us how you would use it')).toHaveValue(otherKept);
        await expectNothingInjected(page, dialogs);

        await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
        await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();
        await expectNothingInjected(page, dialogs);

        const records = await recordsFor(request, QUOTES_TABLE, email);
        expect(records, 'exactly one record for the email').toHaveLength(1);
        const { fields } = records[0]!;
        expect(fields.Email).toBe(storedEmail(email));
        // Stored without bidirectional controls (the forms' parser: docs/security-and-privacy.md).
        const stored = (typed: string) => withoutBidiControls(typed).trim();
        expect(fields['Contact Name']).toBe(stored(values.name));
        expect(fields['School Name']).toBe(stored(values.school));
        expect(fields.Role).toBe(stored(values.role));
        expect(fields['Other Use Case']).toBe(stored(otherKept));
        expect(fields['Use Cases']).toEqual([useCase, `Other: ${stored(otherKept)}`]);
        ids.push(records[0]!.id);
      }
      // The second request found and updated the first record.
      expect(ids[1]).toBe(ids[0]);
      await expectDecoyUntouched(request, QUOTES_TABLE, decoy);
    });
  }

  test('addresses the rule refuses show the message as text and send nothing', async ({
    page,
    visit,
    request,
  }, testInfo) => {
    const dialogs = watchDialogs(page);
    const sent = watchStorageBodies(page);
    await openSchoolsPage(page, visit);
    await textbox(page, 'Your Name').fill(XSS.img);
    await textbox(page, 'School/Institution Name').fill(FORMULA.orTrue);
    const emailField = textbox(page, 'Email Address');
    for (const { name, value } of REFUSED_EMAILS) {
      await emailField.fill(value);
      await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
      await expect(page.getByText(INVALID_EMAIL), name).toBeVisible();
      await expect(emailField, name).toHaveValue(value);
      await expect(emailField, name).toBeFocused();
    }
    await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toHaveCount(0);
    await expectNothingInjected(page, dialogs);
    // Submissions go one at a time: once a valid address is stored, every press above has had
    // its chance to send, and each request sent names the valid address alone.
    const valid = uniqueEmail(testInfo, 'e2e.hostile-after-refused', 'school.sch.uk');
    await emailField.fill(valid);
    await textbox(page, 'Role').fill('Teacher');
    await page.getByRole('button', { name: QUOTE_FORM.submitText }).click();
    await expect(page.getByRole('heading', { name: QUOTE_FORM.thankYouTitle })).toBeVisible();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((body) => !body.toLowerCase().includes(storedEmail(valid)))).toEqual([]);
    expect(await recordsFor(request, QUOTES_TABLE, valid)).toHaveLength(1);
  });
});
