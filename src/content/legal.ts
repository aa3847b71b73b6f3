/**
 * The three legal pages, written in plain English for parents, guardians and teachers in the UK.
 * Every number comes from the spec's constants and every name from the site config, so a change
 * of name or retention period is made once.
 */
import { ADULT_MIN_AGE, DATA_RETENTION_MONTHS, PARENTAL_CONSENT_UNDER_AGE } from '@/config/constants';
import { COMPANY_NAME, CONTACT_EMAIL, PRODUCT_NAME } from '@/config/site';
import type { LegalDocument, LegalSection } from '@/content/types';

/** ISO date shared by the three documents; the page formats it for display. */
export const LEGAL_LAST_UPDATED = '2025-06-02';

/** The verified parental consent methods, listed the same way in every document. */
export const PARENTAL_CONSENT_METHODS: readonly string[] = [
  'a small refundable card transaction made by the parent or guardian, which we refund straight away;',
  'a signed consent form from the parent or guardian; or',
  'confirmation from a teacher or the school, where a child uses the app through their school.',
];

/** The publishing flow, step by step, listed the same way in every document. */
export const PUBLISHING_STEPS: readonly string[] = [
  'Recording: your child records and edits their podcast in the app. Nobody else can hear it yet.',
  'Parent approval: we send the parent or guardian a private link to listen to the episode and approve it or turn it down.',
  `Moderator review: a trained ${PRODUCT_NAME} moderator listens to the episode and checks it against the User Guidelines.`,
  'Publication: the episode appears on the Explore page only after both approvals, from the parent or guardian and from the moderator.',
];

const publishingSection = (heading: string): LegalSection => ({
  heading,
  paragraphs: [
    'Nothing a child records is ever published straight away. Every episode goes through the same four steps:',
  ],
  list: PUBLISHING_STEPS,
});

const contactParagraph = `You can contact us at any time by emailing ${CONTACT_EMAIL}. A real person reads every message, and we aim to reply within five working days.`;

export const GUIDELINES: LegalDocument = {
  title: 'User Guidelines',
  lastUpdated: LEGAL_LAST_UPDATED,
  intro: `${PRODUCT_NAME} is a place for children to share their ideas, stories and questions in their own voice. These guidelines explain how we keep it kind and safe. They are written for children and the grown-ups who help them, so please read them together.`,
  sections: [
    {
      heading: 'Be kind',
      paragraphs: [
        'Every podcast on the Explore page was made by a child who was brave enough to press record. Talk about other people the way you would like them to talk about you.',
      ],
      list: [
        'No teasing, name-calling or making fun of how someone looks, sounds or speaks.',
        'No bullying, threats or trying to make someone feel left out.',
        'No unkind jokes about anyone’s religion, race, disability, gender, family or where they come from.',
        'It is fine to disagree. Explain what you think and why, without being mean.',
      ],
    },
    {
      heading: 'Keep personal information private',
      paragraphs: [
        'Your listeners do not need to know who you are in real life to enjoy your podcast. Use your first name or your alias, and leave out anything that could help a stranger find you.',
      ],
      list: [
        'Do not say your full name, your address, your street or the town where you live.',
        'Do not say the name of your school, your class or your teacher, and do not describe your school uniform.',
        'Do not share phone numbers, email addresses, usernames for games or other apps, or passwords.',
        'Do not say where you will be at a certain time, such as a club, a park or a holiday.',
        'Do not use a photo of your face, your home or your school as your podcast image or cover image. Drawings and pictures of things you love are perfect.',
        'Do not share information about other people, such as a friend’s name or address.',
      ],
    },
    {
      heading: 'Keep it suitable for everyone',
      paragraphs: [
        'Children of all ages listen to the Explore page, so every episode needs to be right for them.',
      ],
      list: [
        'No swearing or rude words.',
        'No scary, violent or upsetting content, and nothing about dangerous challenges or stunts.',
        'No adverts, selling things or asking listeners for money.',
        'No asking listeners to contact you, meet you, or follow you somewhere else.',
      ],
    },
    {
      heading: 'Make it your own',
      paragraphs: [
        'Your ideas are the best part of your podcast. Use your own words, and only use things that you are allowed to use.',
      ],
      list: [
        `Use background music from the ${PRODUCT_NAME} library, or music you made yourself.`,
        'Do not play songs, films or TV programmes, or read out whole books or stories written by someone else. A short quote is fine if you say where it comes from.',
        'If someone else speaks on your podcast, ask them first, and ask a grown-up to check it is OK.',
        'Do not pretend to be someone else, such as a real person or a famous character.',
      ],
    },
    publishingSection('How an episode gets published'),
    {
      heading: 'If something worries you',
      paragraphs: [
        'If you hear something on the Explore page that upsets you, or that breaks these guidelines, tap the Report button under the episode and tell a grown-up you trust. You will not get into trouble for reporting. Our moderators look at every report.',
        `Grown-ups can also email us at ${CONTACT_EMAIL}. If you think a child is in danger, contact the police on 999 straight away.`,
      ],
    },
    {
      heading: 'For parents, guardians and teachers',
      paragraphs: [
        `Parents or guardians create and manage the accounts of children under ${PARENTAL_CONSENT_UNDER_AGE}, and we ask for verified parental consent before a child under ${PARENTAL_CONSENT_UNDER_AGE} can use the app. In a school, a teacher manages the class accounts with the school’s agreement.`,
        'The private approval link we send you is just for you: please do not forward it. Before you approve an episode, listen to it all the way through and check it against the points above, especially the ones about personal information. If you are not sure, turn it down and talk it through with your child; they can record it again.',
      ],
    },
    {
      heading: 'What happens if the guidelines are broken',
      paragraphs: [
        'Most mistakes are accidents, and our moderators will simply not publish the episode and explain why to the parent, guardian or teacher, so the child can fix it and try again.',
        'If an episode that breaks the guidelines has already been published, we remove it. If the guidelines are broken on purpose or again and again, we may pause or close the account. We will always tell the adult who manages the account what happened and why.',
      ],
    },
  ],
};

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
        `Waitlist and quote request details are kept until you ask us to remove them, and in any case no longer than ${DATA_RETENTION_MONTHS} months after your last contact with us.`,
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

export const LEGAL_DOCUMENTS = { guidelines: GUIDELINES, privacy: PRIVACY, terms: TERMS } as const;
