/** One legal document per module, so each page's chunk carries only its own text. */
import { ADULT_MIN_AGE, DATA_RETENTION_MONTHS, PARENTAL_CONSENT_UNDER_AGE } from '#src/config/constants.ts';
import { COMPANY_NAME, CONTACT_EMAIL, PRODUCT_NAME } from '#src/config/site.ts';
import type { LegalDocument } from '#src/content/types.ts';
import {
  LEGAL_LAST_UPDATED,
  PARENTAL_CONSENT_METHODS,
  publishingSection,
  contactParagraph,
} from './shared.ts';

export const TERMS: LegalDocument = {
  title: 'Terms & Conditions',
  lastUpdated: LEGAL_LAST_UPDATED,
  intro: `These terms are the agreement between you and ${COMPANY_NAME} when you use the ${PRODUCT_NAME} app and this website. They are written to be read, so please take a few minutes to go through them. Our Privacy Policy and User Guidelines form part of these terms.`,
  sections: [
    {
      heading: 'Who we are',
      paragraphs: [
        `${PRODUCT_NAME} is provided by ${COMPANY_NAME}, a company based in the UK. When these terms say “we” or “us”, they mean ${COMPANY_NAME}. When they say “you”, they mean the adult who opens and manages the account.`,
      ],
    },
    {
      heading: 'Who can use the app',
      paragraphs: [
        `Adults must be ${ADULT_MIN_AGE} or older to open an account. An adult account holds a first name, last name and email address.`,
        'Teachers may manage accounts for their pupils with the agreement of their school, which is then responsible for having the right permissions in place.',
      ],
    },
    {
      heading: 'Children’s accounts and parental consent',
      paragraphs: [
        `Parents or guardians create and manage accounts for children under ${PARENTAL_CONSENT_UNDER_AGE}. A child account holds only the child’s month and year of birth and an optional alias. Children under ${PARENTAL_CONSENT_UNDER_AGE} need verified parental consent before they can use the app, given in one of these ways:`,
      ],
      list: PARENTAL_CONSENT_METHODS,
    },
    {
      heading: 'Your responsibilities as the account holder',
      paragraphs: [
        'Please give us accurate details, keep your password and private approval links to yourself, and supervise your child’s use of the app in a way that suits their age. You are responsible for the episodes you approve for publication.',
      ],
    },
    publishingSection('Creating and publishing podcasts'),
    {
      heading: 'Content rules and moderation',
      paragraphs: [
        'Every episode must follow the User Guidelines. Moderators may decline to publish an episode, or remove one that has been published, if it breaks the guidelines, shares personal information or could put a child at risk. We will tell the account holder why.',
        'Approval by a parent or guardian and by a moderator applies to publishing only; it does not give anyone else access to the child’s account.',
      ],
    },
    {
      heading: 'Who owns the podcasts',
      paragraphs: [
        'Your child’s podcasts belong to your child. By approving an episode for publication, you give us permission to host it, show it on the Explore page and play it to other users of the app, free of charge, for as long as it is published.',
        'You can unpublish or delete an episode at any time from the parent area of the app, and we will stop showing it straight away.',
        `The app, its design, its background music library and the ${PRODUCT_NAME} name belong to us or to the people who license them to us. You may use them only inside the app.`,
      ],
    },
    {
      heading: 'Prices and purchases',
      paragraphs: [
        'Any price is shown clearly before you pay. Purchases made through the App Store or Google Play are handled by Apple or Google under their terms, including refunds. Prices for schools are agreed in a written quote.',
      ],
    },
    {
      heading: 'Keeping the app available',
      paragraphs: [
        'We work hard to keep the app running and safe, but we may need to pause it for maintenance or change features from time to time. If a change affects you significantly, we will let you know in advance.',
      ],
    },
    {
      heading: 'Our responsibility to you',
      paragraphs: [
        'If we fail to follow these terms, we are responsible for loss or damage you suffer that is a foreseeable result of our failure. We are not responsible for loss or damage that is not foreseeable.',
        'Nothing in these terms limits our liability for death or personal injury caused by our negligence, for fraud, or for anything else that cannot be limited by law. Nothing affects your legal rights as a consumer.',
      ],
    },
    {
      heading: 'Ending the agreement',
      paragraphs: [
        `You can delete an account at any time from the parent area of the app or by emailing ${CONTACT_EMAIL}. We may suspend or close an account that seriously or repeatedly breaks these terms or the User Guidelines, and we will explain why. Data is then handled as the Privacy Policy describes, including the ${DATA_RETENTION_MONTHS}-month retention limit.`,
      ],
    },
    {
      heading: 'Changes to these terms',
      paragraphs: [
        'We will tell account holders by email before any important change takes effect. If you do not agree with a change, you can close your account before it applies.',
      ],
    },
    {
      heading: 'Law and disputes',
      paragraphs: [
        'These terms are governed by the law of England and Wales. If you live in Scotland or Northern Ireland, you can also bring proceedings in your local courts. If you have a complaint, please contact us first so we can try to put it right.',
        contactParagraph,
      ],
    },
  ],
};
