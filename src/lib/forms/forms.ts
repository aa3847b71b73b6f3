/**
 * The site's two forms, each declared once (see contract.ts for what reads a contract), and the
 * list of every form by name that the doors, the templates and the base read. Adding a field is a
 * field in its form's contract here plus its markup and copy in the form (src/features/waitlist/,
 * src/features/quote/); tsc and the tests name anything else.
 */
import {
  DEFAULT_INTEREST_HOME_FORM,
  DEFAULT_INTEREST_STORED,
  EMAIL_MAX_LENGTH,
  PRODUCT_NAME,
} from '#src/config/constants.ts';
import { MESSAGES, STORAGE_ERRORS, WAITLIST_CONSENT_STATEMENT } from '#src/config/messages.ts';
import { CALENDAR, ROUTES } from '#src/config/site.ts';
import {
  CONSENT_STATES,
  EMAIL_KEY_FIELD,
  FORM_HONEYPOT,
  NAME_MAX_LENGTH,
  defineForm,
  type PostedValues,
  type FormContract,
} from './contract.ts';

// The waitlist sign-up (home page).

export const WAITLIST_FORM = defineForm({
  name: 'waitlist',
  table: 'Waitlist',
  path: '/api/forms/waitlist',
  page: ROUTES.home.path,
  honeypot: FORM_HONEYPOT,
  words: {
    answerTitle: 'Join the waitlist',
    logName: 'Waitlist sign-up',
    failed: STORAGE_ERRORS.waitlistFailed,
    thanks: [MESSAGES.waitlistJoined],
    nextStep: 'next-waitlist',
  },
  fields: {
    email: {
      airtable: 'Email',
      type: 'email',
      maxLength: EMAIL_MAX_LENGTH,
      source: 'posted',
      post: 'email',
      label: 'Email address',
      required: true,
    },
    interests: {
      airtable: 'Interests',
      type: 'multipleSelects',
      maxLength: 100,
      maxItems: 10,
      source: 'posted',
      post: 'interests',
      label: 'I’m interested in (choose any)',
      required: false,
      options: [
        { id: 'use', label: `Use ${PRODUCT_NAME}`, stored: `Use ${PRODUCT_NAME}` },
        { id: 'invest', label: `Invest in ${PRODUCT_NAME}`, stored: `Invest in ${PRODUCT_NAME}` },
        { id: 'partner', label: `Partner with ${PRODUCT_NAME}`, stored: `Partner with ${PRODUCT_NAME}` },
      ],
      // The spec's two readings of the default: the home form's, which the site stores, and the
      // stored entry's, an option of the base.
      moreChoices: [DEFAULT_INTEREST_HOME_FORM, DEFAULT_INTEREST_STORED],
    },
    schoolName: {
      airtable: 'School Name',
      type: 'singleLineText',
      maxLength: NAME_MAX_LENGTH,
      source: 'stored',
    },
    contactName: {
      airtable: 'Contact Name',
      type: 'singleLineText',
      maxLength: NAME_MAX_LENGTH,
      source: 'stored',
    },
    pageSource: {
      airtable: 'Page Source',
      type: 'singleLineText',
      maxLength: 100,
      source: 'fixed',
      value: 'home',
    },
    // Consent (relay and queued modes: docs/consent.md). Written by the server's consent rules
    // only, never by a form's cells: a new address is Pending with the statement its visitor saw,
    // Confirmed once its owner presses the emailed link, Withdrawn by unsubscribing.
    consent: {
      airtable: 'Consent',
      type: 'singleSelect',
      maxLength: 20,
      choices: CONSENT_STATES,
      source: 'stored',
    },
    consentText: { airtable: 'Consent Text', type: 'multilineText', maxLength: 2000, source: 'stored' },
    confirmedAt: { airtable: 'Confirmed At', type: 'dateTime', source: 'stored' },
    createdAt: { airtable: 'Created At', type: 'dateTime', source: 'created' },
    lastUpdated: { airtable: 'Last Updated', type: 'dateTime', source: 'updated' },
    emailKey: EMAIL_KEY_FIELD,
  },
  // A sign-up that ticks nothing posts no interest: a new record gets the home form's default,
  // a stored one keeps its interests.
  defaultOnCreate: { field: 'interests', value: [DEFAULT_INTEREST_HOME_FORM] },
  conduct: { confirms: { statement: WAITLIST_CONSENT_STATEMENT } },
});

export type WaitlistForm = typeof WAITLIST_FORM;
/** What the waitlist form posts: `{ email, interests }` (interest option ids). */
export type WaitlistPosted = PostedValues<WaitlistForm>;
export type InterestId = WaitlistForm['fields']['interests']['options'][number]['id'];

// The schools quote request (schools page).

// 'Other: ' and a sentence or two.
const USE_CASE_MAX_LENGTH = 500;

export const QUOTE_FORM = defineForm({
  name: 'quote',
  table: 'School Quotes',
  path: '/api/forms/quote',
  page: ROUTES.schools.path,
  honeypot: FORM_HONEYPOT,
  words: {
    answerTitle: 'Get a Quote',
    logName: 'Quote request',
    failed: STORAGE_ERRORS.quoteFailed,
    thanks: [MESSAGES.quoteThankYouTitle, MESSAGES.quoteThankYouBody],
    nextStep: 'next-quote',
  },
  fields: {
    email: {
      airtable: 'Email',
      type: 'email',
      maxLength: EMAIL_MAX_LENGTH,
      source: 'posted',
      post: 'email',
      label: 'Email Address',
      required: true,
    },
    contactName: {
      airtable: 'Contact Name',
      type: 'singleLineText',
      maxLength: NAME_MAX_LENGTH,
      source: 'posted',
      post: 'contactName',
      label: 'Your Name',
      required: true,
    },
    schoolName: {
      airtable: 'School Name',
      type: 'singleLineText',
      maxLength: NAME_MAX_LENGTH,
      source: 'posted',
      post: 'schoolName',
      label: 'School/Institution Name',
      required: true,
    },
    // Required in the markup only (spec 5), optional in storage (spec 3).
    role: {
      airtable: 'Role',
      type: 'singleLineText',
      maxLength: NAME_MAX_LENGTH,
      source: 'posted',
      post: 'role',
      label: 'Role',
      required: false,
    },
    useCases: {
      airtable: 'Use Cases',
      type: 'multipleSelects',
      maxLength: USE_CASE_MAX_LENGTH,
      maxItems: 10,
      source: 'posted',
      post: 'useCases',
      label: `How would you like to use ${PRODUCT_NAME}?`,
      required: false,
      // 'Other' is stored as 'Other: text' (added by typecast), never as a label: see `other`.
      options: [
        { id: 'support-learners', label: 'Support Learners', stored: 'Support Learners' },
        { id: 'practice-speaking', label: 'Practice Speaking', stored: 'Practice Speaking' },
        { id: 'showcase-creativity', label: 'Showcase Creativity', stored: 'Showcase Creativity' },
        { id: 'other', label: 'Other', stored: 'Other' },
      ],
    },
    otherUseCase: {
      airtable: 'Other Use Case',
      type: 'multilineText',
      maxLength: USE_CASE_MAX_LENGTH,
      source: 'posted',
      post: 'otherUseCase',
      label: 'Tell us how you would use it',
      required: false,
    },
    createdAt: { airtable: 'Created At', type: 'dateTime', source: 'created' },
    lastUpdated: { airtable: 'Last Updated', type: 'dateTime', source: 'updated' },
    status: {
      airtable: 'Status',
      type: 'singleSelect',
      maxLength: 50,
      // The site only ever writes 'New'; the rest are the school team's pipeline.
      choices: ['New', 'Contacted', 'Quoted', 'Won', 'Lost'],
      source: 'fixed',
      value: 'New',
    },
    emailKey: EMAIL_KEY_FIELD,
  },
  other: { field: 'useCases', optionId: 'other', textField: 'otherUseCase', prefix: 'Other:' },
  conduct: {
    tellsTeam: {
      subjectField: 'schoolName',
      addressSetting: 'SCHOOLS_TEAM_EMAIL',
      defaultAddress: 'schools@podling.app',
      copy: 'schoolsTeam',
    },
    acknowledgement: { copy: 'quoteAcknowledgement', url: CALENDAR.bookingUrl },
  },
});

export type QuoteForm = typeof QUOTE_FORM;
/** What the quote form posts, by post name (use cases as option ids). */
export type QuotePosted = PostedValues<QuoteForm>;
export type UseCaseId = QuoteForm['fields']['useCases']['options'][number]['id'];

// Every form of the site, by name.

export const FORMS = { waitlist: WAITLIST_FORM, quote: QUOTE_FORM } as const;

export type FormName = keyof typeof FORMS;

const forms: FormContract[] = Object.values(FORMS);

/**
 * Every form the server, the base's schema and the tools follow: the site's (a unit test may add
 * its own after this module loads, tests/unit/support/test-form.ts: read it when it is used).
 */
export const FORM_LIST: readonly FormContract[] = forms;

/** The form whose addresses are proved (conduct.confirms): its table is the suppression list. */
export const confirmingForm = () => forms.find((form) => form.conduct.confirms);

/** The Airtable name of a form's email field (each form has one: its records are keyed on it). */
export function emailFieldOf(form: FormContract): string {
  const field = Object.values(form.fields).find((candidate) => candidate.type === 'email');
  if (!field) throw new Error(`The ${form.name} form has no email field`);
  return field.airtable;
}

/** Each team the forms tell, once (a team is its address setting, which forms may share), with a form that tells it. */
export const formTeams = () => [
  ...new Map(
    forms.flatMap(({ name, conduct: { tellsTeam: team } }) =>
      team ? [[team.addressSetting, { ...team, form: name }] as const] : [],
    ),
  ).values(),
];

export const formNamed = (name: string) => forms.find((form) => form.name === name);

export const formOfTable = (table: string) => forms.find((form) => form.table === table);

/** The form whose door is at `pathname` (a trailing slash allowed), or undefined. */
export function formAtPath(pathname: string): FormContract | undefined {
  const trimmed = pathname.replace(/\/+$/, '');
  return forms.find((form) => form.path === trimmed);
}
