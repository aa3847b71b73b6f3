// What the three legal pages (plain English for UK parents, guardians and teachers) share. Every
// number comes from the spec's constants and every name from the site config: each change is made once.
import { CONTACT_EMAIL, PRODUCT_NAME } from '#src/config/site.ts';
import type { LegalSection } from '#src/content/types.ts';

/** ISO date shared by the three documents; the page formats it for display. */
export const LEGAL_LAST_UPDATED = '2025-06-02';

/** The verified parental consent methods, listed the same way in every document. */
export const PARENTAL_CONSENT_METHODS: readonly string[] = [
  'a small refundable card transaction made by the parent or guardian, which we refund straight away;',
  'a signed consent form from the parent or guardian; or',
  'confirmation from a teacher or the school, where a child uses the app through their school.',
];

/** The publishing flow, step by step, listed the same way in every document. */
const PUBLISHING_STEPS: readonly string[] = [
  'Recording: your child records and edits their podcast in the app. Nobody else can hear it yet.',
  'Parent approval: we send the parent or guardian a private link to listen to the episode and approve it or turn it down.',
  `Moderator review: a trained ${PRODUCT_NAME} moderator listens to the episode and checks it against the User Guidelines.`,
  'Publication: the episode appears on the Explore page only after both approvals, from the parent or guardian and from the moderator.',
];

export const publishingSection = (heading: string): LegalSection => ({
  heading,
  paragraphs: [
    'Nothing a child records is ever published straight away. Every episode goes through the same four steps:',
  ],
  list: PUBLISHING_STEPS,
});

export const contactParagraph = `You can contact us at any time by emailing ${CONTACT_EMAIL}. A real person reads every message, and we aim to reply within five working days.`;
