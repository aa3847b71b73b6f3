import { ROUTE_PATHS, PRODUCT_NAME } from '@/config/site';
import { MESSAGES } from '@/config/messages';
import { HOME_HEADLINE, SCHOOLS_HEADLINE } from '@/content/headlines';
import { ACCESSIBILITY_META } from '@/content/accessibility-meta';
import { lazyPage, type LazyPage } from '@/app/lazy-page';
import { NotFoundPage } from '@/pages/not-found-page';

// Each page is its own chunk: a visitor downloads the code of the page they open, not all six.
// Text-only pages are static: opened directly, they keep their prerendered markup and load no
// page code at all; their chunk is needed only to navigate to them within the site.
const STATIC = { isStatic: true } as const;
const HomePage = lazyPage('src/pages/home-page.tsx', () =>
  import('@/pages/home-page').then((m) => m.HomePage),
);
const SchoolsPage = lazyPage('src/pages/schools-page.tsx', () =>
  import('@/pages/schools-page').then((m) => m.SchoolsPage),
);
const AboutPage = lazyPage(
  'src/pages/about-page.tsx',
  () => import('@/pages/about-page').then((m) => m.AboutPage),
  STATIC,
);
const GuidelinesPage = lazyPage(
  'src/pages/guidelines-page.tsx',
  () => import('@/pages/guidelines-page').then((m) => m.GuidelinesPage),
  STATIC,
);
const PrivacyPage = lazyPage(
  'src/pages/privacy-page.tsx',
  () => import('@/pages/privacy-page').then((m) => m.PrivacyPage),
  STATIC,
);
const TermsPage = lazyPage(
  'src/pages/terms-page.tsx',
  () => import('@/pages/terms-page').then((m) => m.TermsPage),
  STATIC,
);

const AccessibilityPage = lazyPage(
  'src/pages/accessibility-page.tsx',
  () => import('@/pages/accessibility-page').then((m) => m.AccessibilityPage),
  STATIC,
);

/** What a route needs for the router, the document head, the sitemap and the prerenderer. */
export type RouteDefinition = {
  readonly path: string;
  /** Document title, without the product suffix. */
  readonly title: string;
  readonly description: string;
  /** The page's one h1, as a visitor reads it. */
  readonly heading: string;
  /** The page component; lazy pages are preloaded before hydration and prerendering. */
  readonly Page: LazyPage | (() => React.JSX.Element);
};

export const NOT_FOUND_ROUTE: RouteDefinition = {
  path: '*',
  title: 'Page not found',
  description: `This page does not exist on the ${PRODUCT_NAME} website.`,
  heading: MESSAGES.notFoundTitle,
  Page: NotFoundPage,
};

/** The site's routes; /schools exists only with the SCHOOLS_PAGE flag on. */
export function buildRoutes({ schoolsPageOn }: { schoolsPageOn: boolean }): RouteDefinition[] {
  const routes: (RouteDefinition | null)[] = [
    {
      path: ROUTE_PATHS.home,
      title: `${PRODUCT_NAME}: podcasts made by kids`,
      description: `${PRODUCT_NAME} is a safe, voice-led podcast app for children. Kids build confidence by creating their own podcasts, turning screen time into skill time.`,
      heading: HOME_HEADLINE,
      Page: HomePage,
    },
    schoolsPageOn
      ? {
          path: ROUTE_PATHS.schools,
          title: `${PRODUCT_NAME} for Schools`,
          description: `Bring ${PRODUCT_NAME} to your classroom: voice-first podcasting that helps every learner plan, speak and share. Get a tailored quote or book a 30-minute call.`,
          heading: SCHOOLS_HEADLINE,
          Page: SchoolsPage,
        }
      : null,
    {
      path: ROUTE_PATHS.about,
      title: 'About Us',
      description: `Why we built ${PRODUCT_NAME}: helping children grow through voice, and how it started.`,
      heading: 'About Us',
      Page: AboutPage,
    },
    {
      path: ROUTE_PATHS.guidelines,
      title: 'User Guidelines',
      description: `How children, parents and moderators keep ${PRODUCT_NAME} kind and safe, and how a podcast gets published.`,
      heading: 'User Guidelines',
      Page: GuidelinesPage,
    },
    {
      path: ROUTE_PATHS.privacy,
      title: 'Privacy Policy',
      description: `What ${PRODUCT_NAME} collects about parents and children, why, how long we keep it and your rights under UK law.`,
      heading: 'Privacy Policy',
      Page: PrivacyPage,
    },
    {
      path: ROUTE_PATHS.terms,
      title: 'Terms & Conditions',
      description: `The terms for using ${PRODUCT_NAME}: accounts, parental consent, publishing and acceptable use.`,
      heading: 'Terms & Conditions',
      Page: TermsPage,
    },
    {
      path: ROUTE_PATHS.accessibility,
      title: ACCESSIBILITY_META.title,
      description: ACCESSIBILITY_META.description,
      heading: ACCESSIBILITY_META.title,
      Page: AccessibilityPage,
    },
  ];
  return routes.filter((route): route is RouteDefinition => route !== null);
}

/** The route a path renders: its own, or the not-found page. */
function routeAt(routes: readonly RouteDefinition[], pathname: string): RouteDefinition {
  return routes.find((candidate) => candidate.path === pathname) ?? NOT_FOUND_ROUTE;
}

/** Prepares the first render of the prerendered page at a path: adopt its markup, or load its chunk. */
export async function prepareHydration(routes: readonly RouteDefinition[], pathname: string): Promise<void> {
  const { Page } = routeAt(routes, pathname);
  if ('prepareHydration' in Page) await Page.prepareHydration();
}

/** Loads the page chunk a path needs (if any) so it renders without suspending. */
export async function preloadRoute(routes: readonly RouteDefinition[], pathname: string): Promise<void> {
  const { Page } = routeAt(routes, pathname);
  if ('preload' in Page) await Page.preload();
}

/** Full document title for a route. */
export function documentTitle(route: RouteDefinition): string {
  return route.title.includes(PRODUCT_NAME) ? route.title : `${route.title} | ${PRODUCT_NAME}`;
}
