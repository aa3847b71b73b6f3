/** One legal document per module, so each page's chunk carries only its own text. */
import { PARENTAL_CONSENT_UNDER_AGE } from '#src/config/constants.ts';
import { CONTACT_EMAIL, PRODUCT_NAME } from '#src/config/site.ts';
import type { LegalDocument } from '#src/content/types.ts';
import { LEGAL_LAST_UPDATED, publishingSection } from './shared.ts';

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
