/**
 * The schools quote request, declared once: see contract.ts for what reads it. Adding a field is
 * a field here plus its markup and copy in the form (src/features/quote/); tsc and the tests name
 * anything else.
 */
import { EMAIL_MAX_LENGTH } from '#src/config/constants.ts';
import { PRODUCT_NAME } from '#src/config/product.ts';
import { ROUTES } from '#src/config/routes.ts';
import { EMAIL_KEY_FIELD, FORM_HONEYPOT, NAME_MAX_LENGTH } from './shared.ts';
import { defineForm, type PostedValues, type RecordFields } from './contract.ts';

// 'Other: ' and a sentence or two.
const USE_CASE_MAX_LENGTH = 500;

export const QUOTE_FORM = defineForm({
  name: 'quote',
  table: 'School Quotes',
  path: '/api/forms/quote',
  page: ROUTES.schools.path,
  honeypot: FORM_HONEYPOT,
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
});

export type QuoteForm = typeof QUOTE_FORM;
/** What the quote form posts, by post name (use cases as option ids). */
export type QuotePosted = PostedValues<QuoteForm>;
/** A 'School Quotes' record's cells. */
export type QuoteRecord = RecordFields<QuoteForm>;
/** The id of a use case the form offers. */
export type UseCaseId = QuoteForm['fields']['useCases']['options'][number]['id'];
