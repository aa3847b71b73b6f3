/**
 * The accessibility statement (/accessibility), in the shape of GOV.UK's model statement. Update
 * `ACCESSIBILITY_REVIEWED` whenever the site is re-tested.
 */
import { CONTACT_EMAIL, PRODUCT_NAME, ACCESSIBILITY_META } from '#src/config/site.ts';
import type { LegalDocument } from './types.ts';

/** ISO date of the last test of the site against WCAG 2.2 AA. */
const ACCESSIBILITY_REVIEWED = '2026-11-23';

/** Working days within which we answer a reported accessibility problem. */
const ACCESSIBILITY_REPLY_WORKING_DAYS = 5;

export const ACCESSIBILITY_STATEMENT: LegalDocument = {
  title: ACCESSIBILITY_META.title,
  lastUpdated: ACCESSIBILITY_REVIEWED,
  intro: `This statement applies to the ${PRODUCT_NAME} website. It does not cover the ${PRODUCT_NAME} app, or the video and booking calendar that other companies host and we embed. We want as many people as possible to be able to use this website, including children, parents and teachers who use assistive technology.`,
  sections: [
    {
      heading: 'Using this website',
      paragraphs: ['You should be able to:'],
      list: [
        'zoom in up to 400% without the text spilling off the screen, and enlarge text alone to 200% without losing content;',
        'use every page at a width of 320 pixels without scrolling sideways;',
        'reach and use every link, button and form with a keyboard alone, with a visible focus outline that the cookie banner never covers;',
        'use the site with a screen reader: every page has one main heading and headings in order, and form errors, messages and testimonial changes are announced;',
        'change colours with your operating system’s contrast themes (such as Windows contrast themes) and still see buttons, selected choices, focus and the current page;',
        'increase line, letter, word and paragraph spacing without any text being cut off;',
        'stop the testimonials moving, and have no motion at all if your device asks for reduced motion.',
      ],
    },
    {
      heading: 'How accessible this website is',
      paragraphs: [
        'This website is partially compliant with the Web Content Accessibility Guidelines (WCAG) version 2.2 AA standard, because of the known limits below.',
      ],
      list: [
        'The demo video plays in an embedded player from YouTube. Its controls and captions are provided by YouTube, not by us.',
        'The booking calendar on the schools page is provided by Calendly. We cannot fully control its keyboard and screen reader support. You can book a call by email instead.',
        'The testimonials move on their own every five seconds until you press Pause, move into them with the keyboard or point at them (unless your device asks for reduced motion, when they do not move at all).',
        'We have not yet tested the site with every screen reader on real phones and computers. That testing is planned.',
      ],
    },
    {
      heading: 'Reporting accessibility problems with this website',
      paragraphs: [
        `If you find a problem that is not listed here, or you need any page in a different format, email ${CONTACT_EMAIL}. Tell us the address of the page, what you were trying to do and the device and assistive technology you use, if any.`,
        `A real person reads every message. We will reply within ${ACCESSIBILITY_REPLY_WORKING_DAYS} working days, and tell you when we expect to fix the problem.`,
      ],
    },
    {
      heading: 'If you are not happy with our response',
      paragraphs: [
        'You can contact the Equality Advisory and Support Service (EASS), which gives free advice on equality and discrimination in England, Scotland and Wales. In Northern Ireland, contact the Equality Commission for Northern Ireland.',
      ],
    },
    {
      heading: 'How we tested this website',
      paragraphs: [
        'We test every page (home, schools, about, the user guidelines, privacy policy, terms and conditions, this statement and the page-not-found page) each time the site changes, on a phone width (390 pixels) and a desktop width (1280 pixels), in the Chromium browser.',
        'Automated checks run axe-core on every page and form state, and browser tests check what axe-core cannot: no sideways scrolling at 320 pixels, the size and spacing of every link and button, that keyboard focus is never hidden behind the cookie banner, keyboard-only journeys through both forms, that messages and testimonial changes are announced, heading order, contrast themes (forced colours) and increased text spacing.',
        'The team also checks each change by hand with a keyboard, at 200% text size and with reduced motion turned on.',
      ],
    },
    {
      heading: 'Preparation of this accessibility statement',
      paragraphs: [
        `This statement was prepared and last reviewed on the date shown at the top of the page, after the site was tested as described above. We review it whenever the site changes in a way that could affect accessibility.`,
      ],
    },
  ],
};
