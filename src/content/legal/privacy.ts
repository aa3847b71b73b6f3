/** One legal document per module, so each page's chunk carries only its own text. */
import {
  DATA_RETENTION_MONTHS,
  PARENTAL_CONSENT_UNDER_AGE,
  PENDING_RETENTION_DAYS,
} from '#src/config/constants.ts';
import { COMPANY_NAME, CONTACT_EMAIL, PRODUCT_NAME } from '#src/config/site.ts';
import type { LegalDocument } from '#src/content/types.ts';
import {
  LEGAL_LAST_UPDATED,
  PARENTAL_CONSENT_METHODS,
  publishingSection,
  contactParagraph,
} from './shared.ts';

export const PRIVACY: LegalDocument = {
  title: 'Privacy Policy',
  lastUpdated: LEGAL_LAST_UPDATED,
  intro: `This policy explains what personal information ${COMPANY_NAME} collects when families and schools use the ${PRODUCT_NAME} app and this website, why we collect it, how long we keep it and the choices you have. We have designed ${PRODUCT_NAME} to meet the UK GDPR, the Data Protection Act 2018 and the ICO’s Age Appropriate Design Code (the Children’s code).`,
  sections: [
    {
      heading: 'Who we are',
      paragraphs: [
        `${COMPANY_NAME} makes ${PRODUCT_NAME}, a voice-led podcast-creation app for children on iOS and Android. We are the controller of the personal information described in this policy, which means we are responsible for looking after it.`,
        contactParagraph,
      ],
    },
    {
      heading: 'The information we hold',
      paragraphs: [
        'We collect as little as we can. We never ask a child for their full name, full date of birth, address or school.',
      ],
      list: [
        'Adult accounts (parents, guardians and teachers) hold a first name, last name and email address.',
        'Child accounts hold the child’s month and year of birth and an optional alias (a nickname the child can use instead of their name). We use the month and year of birth to make sure the app is right for the child’s age.',
        'Podcasts have a title, an image, a description, optional background music and a cover image, together with the voice recording itself.',
        'Consent records: which verified parental consent method was used and when. We do not keep full card details; the card transaction is handled by our payment provider.',
        'Moderation records: the approvals from the parent or guardian and the moderator, and any reports made about an episode.',
        'On this website: the email address and interests you give us when you join the waitlist, and the name, email address, school name and role you give us when a school asks for a quote.',
      ],
    },
    {
      heading: 'Why we use it and our lawful basis',
      paragraphs: [
        'UK data protection law requires us to have a lawful basis for each use of personal information.',
      ],
      list: [
        'To run the accounts and the app you asked for (performance of a contract with the adult who opens the account).',
        'To check parental consent, moderate podcasts and keep children safe (legitimate interests, and our legal obligations).',
        'To send waitlist and service emails to adults (consent for marketing, which you can withdraw at any time; legitimate interests for essential service messages).',
        'To understand how this website is used, through analytics, only if you have said yes (consent).',
      ],
    },
    {
      heading: 'Designed for children',
      paragraphs: [
        'Following the Children’s code, settings are high privacy by default: there is no location tracking, no profiling for advertising, no adverts, no private messaging between users and no public comments. Children can only share their work through the publishing steps described below.',
      ],
    },
    {
      heading: 'Verified parental consent',
      paragraphs: [
        `Parents or guardians create and manage accounts for children under ${PARENTAL_CONSENT_UNDER_AGE}. A child under ${PARENTAL_CONSENT_UNDER_AGE} cannot use ${PRODUCT_NAME} until we have verified parental consent, using one of these methods:`,
      ],
      list: PARENTAL_CONSENT_METHODS,
    },
    publishingSection('How podcasts are published'),
    {
      heading: 'Who we share information with',
      paragraphs: [
        'We do not sell personal information, and we never share it with advertisers.',
        'We use a small number of trusted service providers, for example for secure hosting, sending email and processing the consent card transaction. They act only on our instructions, under written contracts that require them to protect the information. Our moderators are trained members of our team, or contractors bound by the same rules and confidentiality terms.',
        'We will share information with the police or other authorities only if the law requires it or if we believe a child is at risk of harm.',
      ],
    },
    {
      heading: 'Where information is stored',
      paragraphs: [
        'We store information in the UK or the European Economic Area wherever we can. If a service provider handles information outside the UK, we make sure it is protected by UK adequacy regulations or by the ICO’s International Data Transfer Agreement.',
      ],
    },
    {
      heading: 'How long we keep information',
      paragraphs: [
        `We keep account and podcast data for ${DATA_RETENTION_MONTHS} months after last activity on the account. After that we delete it, or anonymise it so that nobody can be identified from it. You can ask us to delete an account and its podcasts sooner at any time, and we will do so within 30 days.`,
        `If you join the waitlist or ask for a school quote on this website, we keep the details you gave us for ${DATA_RETENTION_MONTHS} months after your last contact with us (the last time you signed up or sent a request). Our systems check every day and delete waitlist sign-ups and quote requests whose last contact was more than ${DATA_RETENTION_MONTHS} months ago.`,
        `When you join the waitlist, we email you a link to confirm that the address is yours. If the sign-up is not confirmed within ${PENDING_RETENTION_DAYS} days, we delete it, so an address someone else typed in does not stay on our list.`,
        `If you unsubscribe, we stop sending you news at once. We keep your email address marked as unsubscribed, so that we remember your choice and do not add you again if someone signs up with your address, unless you confirm it yourself from the email we send you. That record is deleted ${DATA_RETENTION_MONTHS} months after your last contact with us, or sooner if you ask us (we would then no longer know that you unsubscribed).`,
        `You do not have to wait. To have your waitlist or quote details deleted sooner, or to get a copy of everything we hold about you, email ${CONTACT_EMAIL} and tell us the email address you used. We will do it and reply within one month, and we will tell you once your details have been deleted.`,
      ],
    },
    {
      heading: 'Cookies and analytics',
      paragraphs: [
        'Under the Privacy and Electronic Communications Regulations (PECR), we only use storage that is strictly necessary for the website to work unless you agree to more. Analytics cookies are set only with your consent: if you choose “Reject”, or make no choice, no analytics are loaded.',
        'If you accept, we use analytics to count page visits and clicks on the app store buttons, so we can see what is useful. You can change your mind at any time from the cookie settings on this website. The app itself does not use advertising or tracking cookies.',
      ],
    },
    {
      heading: 'Keeping information safe',
      paragraphs: [
        'Information is encrypted in transit and at rest. Only staff who need it for their job can see it, and access is logged. If something ever went wrong, we would tell the ICO and the people affected as the law requires.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        `You have the right to ask for a copy of your information, to have it corrected or deleted, to restrict or object to how we use it, to receive it in a portable format, and to withdraw consent at any time. Parents and guardians can use these rights on behalf of their child. To use any of them, email ${CONTACT_EMAIL}; we will answer within one month.`,
        'If you are unhappy with how we have handled your information, please tell us first so we can put it right. You can also complain to the Information Commissioner’s Office (ICO) at ico.org.uk or on 0303 123 1113.',
      ],
    },
    {
      heading: 'Changes to this policy',
      paragraphs: [
        'If we change this policy in a way that matters, we will tell the adult account holders by email before the change takes effect, and update the date at the top of this page.',
      ],
    },
  ],
};
