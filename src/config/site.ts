/**
 * Everything about the product the owner may want to change: its name, contact address,
 * store listings, social pages, embeds and navigation. One place, typed.
 *
 * Values wrapped in placeholder() are stand-ins: `npm run launch-check` lists them until replaced.
 * Relative imports only: Node-side tools (the Airtable schema's readers) load this file too.
 */
import { placeholder } from './placeholder.ts';

/** The product's name (elided in the spec); every visible mention reads this constant. */
export const PRODUCT_NAME = 'Podling';
export const COMPANY_NAME = 'Podling Ltd';
export const TAGLINE = 'Podcasts made by kids, with their own voice';
export const CONTACT_EMAIL = 'hello@podling.app';

export const LINKS = {
  /** App Store, UK listing. */
  appStore: placeholder(
    'https://apps.apple.com/gb/app/podling/id6450000000',
    'the App Store (UK) listing URL',
  ),
  googlePlay: placeholder(
    'https://play.google.com/store/apps/details?id=app.podling',
    'the Google Play listing URL',
  ),
  blog: placeholder('https://blog.podling.app', "the blog's URL"),
  newsletter: placeholder('https://blog.podling.app/subscribe', "the newsletter sign-up page's URL"),
  linkedIn: placeholder('https://www.linkedin.com/company/podling-app', 'the LinkedIn company page'),
  facebook: placeholder('https://www.facebook.com/podling.app', 'the Facebook page'),
  instagram: placeholder('https://www.instagram.com/podling.app', 'the Instagram profile'),
  contactMailto: `mailto:${CONTACT_EMAIL}`,
} as const;

export const VIDEO = {
  /** Video id on the video platform; played from its privacy-enhanced domain only on click. */
  id: placeholder('PLACEHOLDER', "the demo video's id on the video platform (11 characters)"),
  embedOrigin: 'https://www.youtube-nocookie.com',
  title: `${PRODUCT_NAME} demo: a child records their first podcast`,
} as const;

export const CALENDAR = {
  /** Scheduling page for a 30-minute call with the schools team. */
  bookingUrl: placeholder(
    'https://calendly.com/podling-schools/30min',
    "the schools team's 30-minute booking page",
  ),
  embedOrigin: 'https://calendly.com',
  title: `Book a 30-minute call with the ${PRODUCT_NAME} schools team`,
} as const;

export type SocialLink = { readonly label: string; readonly href: string; readonly icon: SocialIcon };
export type SocialIcon = 'linkedin' | 'facebook' | 'instagram';

export const SOCIAL_LINKS: readonly SocialLink[] = [
  { label: `${PRODUCT_NAME} on LinkedIn`, href: LINKS.linkedIn, icon: 'linkedin' },
  { label: `${PRODUCT_NAME} on Facebook`, href: LINKS.facebook, icon: 'facebook' },
  { label: `${PRODUCT_NAME} on Instagram`, href: LINKS.instagram, icon: 'instagram' },
];

export const ROUTE_PATHS = {
  home: '/',
  schools: '/schools',
  about: '/about',
  guidelines: '/guidelines',
  privacy: '/privacy',
  terms: '/terms',
  accessibility: '/accessibility',
} as const;

/** A navigation entry: an internal route, an in-page anchor, or an external page. */
export type NavItem =
  | {
      readonly kind: 'route';
      readonly label: string;
      readonly to: string;
      readonly requiresSchools?: boolean;
    }
  | { readonly kind: 'external'; readonly label: string; readonly href: string };

export const HEADER_NAV: readonly NavItem[] = [
  { kind: 'route', label: 'Home', to: ROUTE_PATHS.home },
  { kind: 'route', label: 'Schools', to: ROUTE_PATHS.schools, requiresSchools: true },
  { kind: 'external', label: 'Blog', href: LINKS.blog },
  { kind: 'route', label: 'About Us', to: ROUTE_PATHS.about },
  { kind: 'external', label: 'Newsletter', href: LINKS.newsletter },
];

export const MOBILE_NAV: readonly NavItem[] = [
  { kind: 'route', label: 'Product', to: ROUTE_PATHS.home },
  { kind: 'external', label: 'Blog', href: LINKS.blog },
  { kind: 'route', label: 'Schools', to: ROUTE_PATHS.schools, requiresSchools: true },
  { kind: 'route', label: 'About Us', to: ROUTE_PATHS.about },
  { kind: 'external', label: 'Newsletter', href: LINKS.newsletter },
];

export const FOOTER_COLUMNS: readonly { readonly title: string; readonly items: readonly NavItem[] }[] = [
  {
    title: 'Apps',
    items: [
      { kind: 'external', label: 'iOS', href: LINKS.appStore },
      { kind: 'external', label: 'Android', href: LINKS.googlePlay },
    ],
  },
  {
    title: 'Company',
    items: [
      { kind: 'route', label: 'Home', to: ROUTE_PATHS.home },
      { kind: 'route', label: 'Schools', to: ROUTE_PATHS.schools, requiresSchools: true },
      { kind: 'external', label: 'Blog', href: LINKS.blog },
      { kind: 'route', label: 'About Us', to: ROUTE_PATHS.about },
    ],
  },
  {
    title: 'Privacy & Terms',
    items: [
      { kind: 'route', label: 'User Guidelines', to: ROUTE_PATHS.guidelines },
      { kind: 'route', label: 'Privacy', to: ROUTE_PATHS.privacy },
      { kind: 'route', label: 'Terms & Conditions', to: ROUTE_PATHS.terms },
      { kind: 'route', label: 'Accessibility', to: ROUTE_PATHS.accessibility },
    ],
  },
];

/** Attributes every link that leaves the site carries. */
export const EXTERNAL_LINK_PROPS = { target: '_blank', rel: 'noopener noreferrer' } as const;
