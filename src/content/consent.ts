import { PRODUCT_NAME } from '#src/config/site.ts';

/**
 * The cookie banner's words. Kept short on purpose: on a phone the banner must stay a smaller
 * block of text than the page's own first screen, or it becomes the page's largest paint.
 */
export const CONSENT_TEXT = {
  heading: 'Can we count visits?',
  body: `Analytics cookies help us count visits to ${PRODUCT_NAME}. They stay off unless you accept; change your mind in "Cookie settings".`,
  accept: 'Accept analytics',
  reject: 'Reject analytics',
  policyLink: 'Privacy policy',
} as const;
