import { PRODUCT_NAME } from './product.ts';

/** User-visible messages from the spec (sections 4 and 8), quoted exactly. */
export const MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  genericFailureToast: 'Something went wrong. Please try again.',
  quoteSuccessToast:
    "Thank you for your interest! We'll be in touch soon with a tailored quote for your school.",
  quoteThankYouTitle: 'Thank You!',
  quoteThankYouBody: "We've received your request and will be in touch shortly.",
  waitlistJoined: `Thanks for your interest in ${PRODUCT_NAME}!`,
  notFoundTitle: 'This page is on mute...',
  notFoundButton: 'Back to Home',
  iosPopupText:
    "Dear visitor, We're currently experiencing a technical issue affecting sign-up on our iOS app...",
  iosPopupDismiss: 'Dismiss',
  iosPopupDownload: 'Download the app',
} as const;

/** Storage-layer errors (spec section 8); {provider} is Airtable. */
export const STORAGE_ERRORS = {
  invalidEmailFormat: 'Invalid email format',
  invalidApiKey: 'Invalid API key. Please check your Airtable configuration.',
  notAuthorized: 'Not authorized to access this Airtable base. Please check permissions.',
  quoteFailed: 'Failed to submit quote request. Please try again later.',
  waitlistFailed: 'Failed to add to waitlist. Please try again later.',
} as const;
