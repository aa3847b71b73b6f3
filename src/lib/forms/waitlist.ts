/**
 * The waitlist sign-up (home page), declared once: see contract.ts for what reads it. Adding a
 * field is a field here plus its markup and copy in the form (src/features/waitlist/); tsc and
 * the tests name anything else.
 */
import {
  DEFAULT_INTEREST_HOME_FORM,
  DEFAULT_INTEREST_STORED,
  EMAIL_MAX_LENGTH,
} from '#src/config/constants.ts';
import { ROUTES } from '#src/config/routes.ts';
import { PRODUCT_NAME } from '#src/config/product.ts';
import { CONSENT_STATES, EMAIL_KEY_FIELD, FORM_HONEYPOT, NAME_MAX_LENGTH } from './shared.ts';
import { defineForm, type PostedValues, type RecordFields } from './contract.ts';

export const WAITLIST_FORM = defineForm({
  name: 'waitlist',
  table: 'Waitlist',
  path: '/api/forms/waitlist',
  page: ROUTES.home.path,
  honeypot: FORM_HONEYPOT,
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
});

export type WaitlistForm = typeof WAITLIST_FORM;
/** What the waitlist form posts: `{ email, interests }` (interest option ids). */
export type WaitlistPosted = PostedValues<WaitlistForm>;
/** A 'Waitlist' record's cells. */
export type WaitlistRecord = RecordFields<WaitlistForm>;
/** The id of an interest the form offers. */
export type InterestId = WaitlistForm['fields']['interests']['options'][number]['id'];
