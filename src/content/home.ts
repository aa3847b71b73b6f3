/** Home page copy: hero, schools card, waitlist, testimonials and supporters headings. */
import { PRODUCT_NAME, ROUTE_PATHS, HOME_HEADLINE } from '#src/config/site.ts';
import { type InterestId, WAITLIST_FORM } from '#src/lib/forms/forms.ts';

/** Each card's description, by option id (an option added to the contract needs one: tsc says so). */
const INTEREST_DESCRIPTIONS: Record<InterestId, string> = {
  use: 'Early access for my child',
  invest: 'Investment opportunities',
  partner: 'I represent a school, brand or platform',
};

/** The interest cards (a contract option and its description), in the order the contract offers them. */
export const WAITLIST_INTEREST_OPTIONS = WAITLIST_FORM.fields.interests.options.map((option) => ({
  id: option.id,
  label: option.label,
  description: INTEREST_DESCRIPTIONS[option.id],
}));

export const HOME = {
  hero: {
    badge: 'Available Now',
    headline: HOME_HEADLINE,
    intro: [
      'Children build real confidence when they create their own podcasts: planning an idea, telling it out loud and hearing themselves improve.',
      'In a world of instant AI answers, the ability to think something through and explain it in your own words matters more than ever.',
      `${PRODUCT_NAME} turns screen time into skill time, in a safe space where every episode is approved by a parent and checked by a moderator.`,
    ],
    mascotAlt: `The ${PRODUCT_NAME} mascot, a cheerful microphone, waving hello`,
  },
  schoolsCard: {
    heading: `${PRODUCT_NAME} for schools`,
    body: 'Give every pupil a way to plan, speak and share their learning, from reluctant writers to confident storytellers. Ask for a tailored quote or book a 30-minute call with our schools team.',
    buttonLabel: `Explore ${PRODUCT_NAME} for Schools`,
    to: ROUTE_PATHS.schools,
  },
  waitlist: {
    heading: 'Stay in the loop',
    intro: `Tell us what interests you and we’ll email you the latest ${PRODUCT_NAME} news, no more than once a month.`,
  },
  carouselHeading: `They use ${PRODUCT_NAME}`,
  supportedByHeading: 'Supported by',
} as const;
