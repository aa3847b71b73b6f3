/** Schools page copy: hero, benefit cards, quote and call sections. */
import { SCHEDULING_CALL_MINUTES } from '#src/config/constants.ts';
import { PRODUCT_NAME, SCHOOLS_HEADLINE } from '#src/config/site.ts';

/** Which drawn icon a benefit card shows; the card component maps keys to SVGs. */
export type SchoolBenefitIcon = 'pencil' | 'microphone' | 'languages' | 'accessibility';

export const SCHOOLS = {
  hero: {
    title: SCHOOLS_HEADLINE,
    subtitle: `${PRODUCT_NAME} helps pupils plan, speak and share their ideas as podcasts, building oracy, confidence and a clear route into writing. Safe by design, with every episode approved before anyone hears it.`,
    quoteButton: 'Get a Quote',
    learnMoreButton: 'Learn More',
  },
  benefits: {
    heading: `Why Schools Choose ${PRODUCT_NAME}`,
    intro:
      'Designed with primary teachers to fit the lessons you already teach, not to add another thing to the timetable.',
    cards: [
      {
        id: 'writing-barriers',
        title: 'Break down writing barriers',
        body: 'Pupils who struggle to get words onto paper can still plan and tell a story aloud. Guided prompts help them shape a beginning, middle and end, and listening back shows them the structure they can then carry into their writing.',
        icon: 'pencil',
      },
      {
        id: 'student-voice',
        title: 'Student voice and creativity',
        body: 'From book reviews to science explainers and school council news, children choose the topic and the tone. Quieter pupils often find that recording lets them share ideas they would never put up their hand to say.',
        icon: 'microphone',
      },
      {
        id: 'language-learning',
        title: 'Active language learning',
        body: 'Regular, low-pressure speaking practice for EAL learners and for MFL lessons. Pupils rehearse, re-record and hear their own progress, and you can listen to every child rather than the few who speak up in class.',
        icon: 'languages',
      },
      {
        id: 'accessible-writing',
        title: 'Accessible by design',
        body: 'Voice first means spelling and handwriting no longer stand between a child and their ideas. Pupils with dyslexia and other SEND can show what they know, with clear visuals, simple controls and no time pressure.',
        icon: 'accessibility',
      },
    ],
  },
  carouselHeading: `They use ${PRODUCT_NAME}`,
  quote: {
    heading: 'Get a Quote',
    intro: `Tell us a little about your school and how you would like to use ${PRODUCT_NAME}. We will reply within two working days with a tailored quote for your setting.`,
  },
  call: {
    heading: 'Book a Call with Us',
    intro: `Prefer to talk it through? Pick a time for a ${SCHEDULING_CALL_MINUTES}-minute call with our schools team. We will show you the app, answer your safeguarding questions and discuss how it could work in your classrooms.`,
  },
} as const;
