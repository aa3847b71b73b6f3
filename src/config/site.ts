/**
 * What the owner may want to change, in one typed place: the pages (route table), contact address,
 * store listings, social pages, embeds and navigation. Node-side tools load this module (Vite's
 * config, the bench, the Playwright specs): no JSX and nothing that touches import.meta.env.
 */
import { MESSAGES } from './messages.ts';
import { PRODUCT_NAME, CONTACT_EMAIL } from './constants.ts';
import { type FeatureFlag } from './settings.ts';
export { COMPANY_NAME, CONTACT_EMAIL, PRODUCT_NAME, TAGLINE } from './constants.ts';

/** Each stand-in value and what the owner should put there. */
const marks: { readonly value: string; readonly note: string }[] = [];

/**
 * Marks a stand-in the owner must replace before launch (then drop the `placeholder(…)`): returns
 * `value`, recording it so `npm run launch-check` and the build's warning list every stand-in.
 */
export function placeholder<T extends string>(value: T, note: string): T {
  marks.push({ value, note });
  return value;
}

/** Every value marked with placeholder() in the modules loaded so far. */
export function placeholderMarks(): readonly (typeof marks)[number][] {
  return [...marks];
}

/** The home and schools pages' h1s: here, so the route table names them without their pages' content. */
export const HOME_HEADLINE = 'Your child’s voice, their own podcast';
export const SCHOOLS_HEADLINE = 'Give a Voice to Every Learner';

/** The statement's title and description apart from its text, which loads with its page only. */
export const ACCESSIBILITY_META = {
  title: 'Accessibility statement',
  description: `How accessible the ${PRODUCT_NAME} website is, how we test it against WCAG 2.2 AA, what we know does not work yet and how to report a problem.`,
} as const;

/**
 * 'content': text and links only; opened directly, it keeps its prerendered markup and loads no
 * code of its own (src/app/lazy-page.tsx), held to the content pages' JavaScript ceiling.
 * 'interactive': hydrates with its own chunk (a form, widgets), held to the higher ceiling.
 */
export type PageKind = 'content' | 'interactive';

export type NavList = 'header' | 'mobile' | 'footerCompany' | 'footerLegal';

type PageFields = {
  readonly path: `/${string}`;
  /** Document title, without the product suffix (documentTitle adds it). */
  readonly title: string;
  readonly description: string;
  /** The page's one h1. */
  readonly heading: string;
  /** The route exists only with this flag on: off, it is not routed, prerendered or linked. */
  readonly onlyWith?: FeatureFlag;
  /** Its label in each navigation list that links to it, in table order. */
  readonly nav?: Readonly<Partial<Record<NavList, string>>>;
};

export type RouteEntry = PageFields & ({ readonly kind: 'content' } | { readonly kind: 'interactive' });

/**
 * The site's pages, once: the router, the prerenderer (hence the sitemap), the navigation, the
 * JavaScript ceilings, the bench and every test that visits each page read this table. A page is
 * `src/pages/<name>-page.tsx` exporting `<Name>Page` (`pressKit` → press-kit-page.tsx,
 * PressKitPage), its copy in src/content/ and an entry here.
 */
export const ROUTES = {
  home: {
    path: '/',
    title: `${PRODUCT_NAME}: podcasts made by kids`,
    description: `${PRODUCT_NAME} is a safe, voice-led podcast app for children. Kids build confidence by creating their own podcasts, turning screen time into skill time.`,
    heading: HOME_HEADLINE,
    kind: 'interactive',
    nav: { header: 'Home', mobile: 'Product', footerCompany: 'Home' },
  },
  schools: {
    path: '/schools',
    title: `${PRODUCT_NAME} for Schools`,
    description: `Bring ${PRODUCT_NAME} to your classroom: voice-first podcasting that helps every learner plan, speak and share. Get a tailored quote or book a 30-minute call.`,
    heading: SCHOOLS_HEADLINE,
    kind: 'interactive',
    onlyWith: 'SCHOOLS_PAGE',
    nav: { header: 'Schools', mobile: 'Schools', footerCompany: 'Schools' },
  },
  about: {
    path: '/about',
    title: 'About Us',
    description: `Why we built ${PRODUCT_NAME}: helping children grow through voice, and how it started.`,
    heading: 'About Us',
    kind: 'content',
    nav: { header: 'About Us', mobile: 'About Us', footerCompany: 'About Us' },
  },
  guidelines: {
    path: '/guidelines',
    title: 'User Guidelines',
    description: `How children, parents and moderators keep ${PRODUCT_NAME} kind and safe, and how a podcast gets published.`,
    heading: 'User Guidelines',
    kind: 'content',
    nav: { footerLegal: 'User Guidelines' },
  },
  privacy: {
    path: '/privacy',
    title: 'Privacy Policy',
    description: `What ${PRODUCT_NAME} collects about parents and children, why, how long we keep it and your rights under UK law.`,
    heading: 'Privacy Policy',
    kind: 'content',
    nav: { footerLegal: 'Privacy' },
  },
  terms: {
    path: '/terms',
    title: 'Terms & Conditions',
    description: `The terms for using ${PRODUCT_NAME}: accounts, parental consent, publishing and acceptable use.`,
    heading: 'Terms & Conditions',
    kind: 'content',
    nav: { footerLegal: 'Terms & Conditions' },
  },
  accessibility: {
    path: '/accessibility',
    title: ACCESSIBILITY_META.title,
    description: ACCESSIBILITY_META.description,
    heading: ACCESSIBILITY_META.title,
    kind: 'content',
    nav: { footerLegal: 'Accessibility' },
  },
} as const satisfies Readonly<Record<string, RouteEntry>>;

export type RouteName = keyof typeof ROUTES;

export type NamedRoute = RouteEntry & { readonly name: RouteName };

/** Every route in table order (the order of the sitemap and of each navigation list). */
export const ROUTE_LIST: readonly NamedRoute[] = (Object.keys(ROUTES) as RouteName[]).map((name) => ({
  ...ROUTES[name],
  name,
}));

/** Each route's path by name, for links in the app's own code: `ROUTE_PATHS.privacy`. */
export const ROUTE_PATHS = Object.fromEntries(ROUTE_LIST.map((route) => [route.name, route.path])) as {
  readonly [Name in RouteName]: (typeof ROUTES)[Name]['path'];
};

/** The page every other path gets (404.html); its code is in the shell, held to the content ceiling. */
export const NOT_FOUND = {
  path: '*',
  title: 'Page not found',
  description: `This page does not exist on the ${PRODUCT_NAME} website.`,
  heading: MESSAGES.notFoundTitle,
  kind: 'content',
} as const satisfies Omit<PageFields, 'path'> & { path: '*'; kind: PageKind };

/** The routes a build with these flags serves (a route behind a flag that is off is left out). */
export function routesOn(flagsOn: Readonly<Partial<Record<FeatureFlag, boolean>>>): NamedRoute[] {
  return ROUTE_LIST.filter((route) => route.onlyWith === undefined || flagsOn[route.onlyWith] === true);
}

/** 'pressKit' → 'press-kit-page': the page's module in src/pages/ and the name of its chunk. */
export function pageModuleName(name: string): string {
  return `${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}-page`;
}

/** 'pressKit' → 'PressKitPage': the component the page's module exports. */
export function pageComponentName(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}Page`;
}

export function documentTitle(route: { readonly title: string }): string {
  return route.title.includes(PRODUCT_NAME) ? route.title : `${route.title} | ${PRODUCT_NAME}`;
}

export const LINKS = {
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

/** A navigation entry: an internal route, an in-page anchor, or an external page. */
export type NavItem =
  | {
      readonly kind: 'route';
      readonly label: string;
      readonly to: string;
      readonly onlyWith?: FeatureFlag;
    }
  | ExternalNavItem;
type ExternalNavItem = { readonly kind: 'external'; readonly label: string; readonly href: string };

type OutsideLink = readonly [after: string, item: ExternalNavItem];

/** One navigation list: its routes in table order, each outside link right after the route it follows. */
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
