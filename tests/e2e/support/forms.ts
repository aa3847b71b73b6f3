import { QUOTES_TABLE, WAITLIST_TABLE } from './emulator.ts';

/** The spec's failure toast, the same for both forms (section 8). */
export const FAILURE_TOAST = 'Something went wrong. Please try again.';
/** The spec's message under an email field the rule refuses (sections 3 and 5). */
export const INVALID_EMAIL = 'Please enter a valid email address';

/** The home page's waitlist form: where it is, its table and its visible texts. */
export const WAITLIST_FORM = {
  name: 'home waitlist form',
  path: '/',
  table: WAITLIST_TABLE,
  formSelector: 'form.waitlist-form',
  emailLabel: 'Email address',
  submitText: 'Join the waitlist',
  joinedText: 'Thanks for your interest in Podling!',
} as const;

/** The schools page's quote form: where it is, its table and its visible texts. */
export const QUOTE_FORM = {
  name: 'schools quote form',
  path: '/schools',
  table: QUOTES_TABLE,
  formSelector: 'form.quote-form',
  emailLabel: 'Email Address',
  submitText: 'Request a Quote',
  thankYouTitle: 'Thank You!',
  successToast: "Thank you for your interest! We'll be in touch soon with a tailored quote for your school.",
} as const;
