/**
 * A third form that exists only in the tests (issue 48: a form is data): a partners' enquiry with
 * an email, an organisation and a message, whose team is told (its subject names the organisation).
 * Importing this module registers it, in the test's process (the owner's commands, the emulator's
 * base) and in the Worker (partners-worker.ts): nothing under src/server knows of it.
 */
import { defineForm, EMAIL_KEY_FIELD, FORM_HONEYPOT, NAME_MAX_LENGTH } from '#src/lib/forms/contract.ts';
import { formNamed, registerForm, WAITLIST_FORM } from '#src/lib/forms/forms.ts';

export const PARTNERS_FORM = defineForm({
  name: 'partners',
  table: 'Partners',
  path: '/api/forms/partners',
  page: '/partners',
  honeypot: FORM_HONEYPOT,
  words: {
    answerTitle: 'Partner with us',
    logName: 'Partners enquiry',
    failed: 'Failed to send your enquiry. Please try again later.',
  },
  fields: {
    // The site's email field, as the waitlist declares it.
    email: WAITLIST_FORM.fields.email,
    organisation: {
      airtable: 'Organisation',
      type: 'singleLineText',
      maxLength: NAME_MAX_LENGTH,
      source: 'posted',
      post: 'organisation',
      label: 'Organisation',
      required: true,
    },
    message: {
      airtable: 'Message',
      type: 'multilineText',
      maxLength: 2000,
      source: 'posted',
      post: 'message',
      label: 'Message',
      required: false,
    },
    createdAt: { airtable: 'Created At', type: 'dateTime', source: 'created' },
    lastUpdated: { airtable: 'Last Updated', type: 'dateTime', source: 'updated' },
    emailKey: EMAIL_KEY_FIELD,
  },
  conduct: { tellsTeam: { subjectField: 'organisation' } },
});

if (!formNamed(PARTNERS_FORM.name)) registerForm(PARTNERS_FORM);
