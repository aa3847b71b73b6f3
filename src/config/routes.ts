/**
 * The site's pages, once. Everything that walks the routes reads this table: the router and the
 * prerenderer (src/app/routes.tsx, src/entry-server.tsx, hence the sitemap), the navigation
 * lists (src/config/site.ts), the JavaScript ceilings and the bench (scripts/bench/bundle-report.mjs,
 * scripts/bench/bench.mjs) and every test that visits each page.
 *
 * Adding a page touches three files: the page, `src/pages/<name>-page.tsx` exporting
 * `<Name>Page` (the key below in kebab and Pascal case: `pressKit` → press-kit-page.tsx,
 * PressKitPage); its copy in src/content/; and an entry here.
 *
 * Node-side tools load this module (Vite's config through site.ts, the bench, the Playwright
 * specs): no JSX and nothing that touches import.meta.env.
 */
import { ACCESSIBILITY_META } from '#src/content/accessibility-meta.ts';
import { HOME_HEADLINE, SCHOOLS_HEADLINE } from '#src/content/headlines.ts';
import { MESSAGES } from './messages.ts';
import { PRODUCT_NAME } from './product.ts';
import type { FeatureFlag } from './settings.ts';

/**
 * - 'content': text and links only. Opened directly, it keeps its prerendered markup and loads no
 *   code of its own (src/app/lazy-page.tsx), so it is held to the content pages' JavaScript ceiling.
 * - 'interactive': hydrates with its own chunk (a form, widgets), held to the higher ceiling.
 */
export type PageKind = 'content' | 'interactive';

/** The navigation lists a route can appear in (src/config/site.ts). */
export type NavList = 'header' | 'mobile' | 'footerCompany' | 'footerLegal';

type PageFields = {
  readonly path: `/${string}`;
  /** Document title, without the product suffix (documentTitle adds it). */
  readonly title: string;
  readonly description: string;
  /** The page's one h1, as a visitor reads it. */
  readonly heading: string;
  /** The route exists only with this flag on: off, it is not routed, prerendered or linked. */
  readonly onlyWith?: FeatureFlag;
  /** Its label in each navigation list that links to it, in table order. */
  readonly nav?: Readonly<Partial<Record<NavList, string>>>;
};

export type RouteEntry = PageFields & ({ readonly kind: 'content' } | { readonly kind: 'interactive' });

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

/** A route with its name, as the lists below hold it. */
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

/**
 * The page every other path gets (404.html). Its code is in the shell, so it loads no more than
 * a content page and is held to the same ceiling.
 */
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

/** Full document title for a route. */
export function documentTitle(route: { readonly title: string }): string {
  return route.title.includes(PRODUCT_NAME) ? route.title : `${route.title} | ${PRODUCT_NAME}`;
}
