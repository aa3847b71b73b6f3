/**
 * Everything about the product the owner may want to change: its name, contact address,
 * store listings, social pages, embeds and navigation (whose routes come from the route table,
 * src/config/routes.ts). One place, typed.
 *
 * Values wrapped in placeholder() are stand-ins: `npm run launch-check` lists them until replaced.
 */
import { placeholder } from './placeholder.ts';
import { CONTACT_EMAIL, PRODUCT_NAME } from './product.ts';
import { type NavList, ROUTE_LIST, ROUTE_PATHS } from './routes.ts';
import type { FeatureFlag } from './settings.ts';

export { COMPANY_NAME, CONTACT_EMAIL, PRODUCT_NAME, TAGLINE } from './product.ts';

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

export { ROUTE_PATHS } from './routes.ts';

/** A navigation entry: an internal route, an in-page anchor, or an external page. */
export type NavItem =
  | {
      readonly kind: 'route';
      readonly label: string;
      readonly to: string;
      /** Shown only with this flag on, as its route exists only then. */
      readonly onlyWith?: FeatureFlag;
    }
  | ExternalNavItem;
type ExternalNavItem = { readonly kind: 'external'; readonly label: string; readonly href: string };

/** An outside link in a navigation list, placed right after the route with this path. */
type OutsideLink = readonly [after: string, item: ExternalNavItem];

/**
 * One navigation list: the routes the table places in it (src/config/routes.ts), in table order,
 * with each outside link right after the route it follows.
 */
function navList(list: NavList, outside: readonly OutsideLink[] = []): readonly NavItem[] {
  return ROUTE_LIST.flatMap((route) => {
    const label = route.nav?.[list];
    if (label === undefined) return [];
    const following = outside.filter(([after]) => after === route.path).map(([, item]) => item);
    return [{ kind: 'route', label, to: route.path, onlyWith: route.onlyWith } as const, ...following];
  });
}

const BLOG: ExternalNavItem = { kind: 'external', label: 'Blog', href: LINKS.blog };
const NEWSLETTER: ExternalNavItem = { kind: 'external', label: 'Newsletter', href: LINKS.newsletter };

export const HEADER_NAV = navList('header', [
  [ROUTE_PATHS.schools, BLOG],
  [ROUTE_PATHS.about, NEWSLETTER],
]);

export const MOBILE_NAV = navList('mobile', [
  [ROUTE_PATHS.home, BLOG],
  [ROUTE_PATHS.about, NEWSLETTER],
]);

export const FOOTER_COLUMNS: readonly { readonly title: string; readonly items: readonly NavItem[] }[] = [
  {
    title: 'Apps',
    items: [
      { kind: 'external', label: 'iOS', href: LINKS.appStore },
      { kind: 'external', label: 'Android', href: LINKS.googlePlay },
    ],
  },
  { title: 'Company', items: navList('footerCompany', [[ROUTE_PATHS.schools, BLOG]]) },
  { title: 'Privacy & Terms', items: navList('footerLegal') },
];

/** Attributes every link that leaves the site carries. */
export const EXTERNAL_LINK_PROPS = { target: '_blank', rel: 'noopener noreferrer' } as const;
