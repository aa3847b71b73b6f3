import type { ReactNode } from 'react';
import { ROUTE_PATHS, PRODUCT_NAME } from '@/config/site';
import { MESSAGES } from '@/config/messages';
import { HOME } from '@/content/home';
import { SCHOOLS } from '@/content/schools';
import { AboutPage } from '@/pages/about-page';
import { GuidelinesPage } from '@/pages/guidelines-page';
import { HomePage } from '@/pages/home-page';
import { NotFoundPage } from '@/pages/not-found-page';
import { PrivacyPage } from '@/pages/privacy-page';
import { SchoolsPage } from '@/pages/schools-page';
import { TermsPage } from '@/pages/terms-page';

const HOME_HEADING = HOME.hero.headline;
const SCHOOLS_HEADING = SCHOOLS.hero.title;

/** What a route needs for the router, the document head, the sitemap and the prerenderer. */
export type RouteDefinition = {
  readonly path: string;
  /** Document title, without the product suffix. */
  readonly title: string;
  readonly description: string;
  /** The page's one h1, as a visitor reads it. */
  readonly heading: string;
  readonly element: ReactNode;
};

export const NOT_FOUND_ROUTE: RouteDefinition = {
  path: '*',
  title: 'Page not found',
  description: `This page does not exist on the ${PRODUCT_NAME} website.`,
  heading: MESSAGES.notFoundTitle,
  element: <NotFoundPage />,
};

/** The site's routes; /schools exists only with the SCHOOLS_PAGE flag on. */
export function buildRoutes({ schoolsPageOn }: { schoolsPageOn: boolean }): RouteDefinition[] {
  const routes: (RouteDefinition | null)[] = [
    {
      path: ROUTE_PATHS.home,
      title: `${PRODUCT_NAME}: podcasts made by kids`,
      description: `${PRODUCT_NAME} is a safe, voice-led podcast app for children. Kids build confidence by creating their own podcasts, turning screen time into skill time.`,
      heading: HOME_HEADING,
      element: <HomePage />,
    },
    schoolsPageOn
      ? {
          path: ROUTE_PATHS.schools,
          title: `${PRODUCT_NAME} for Schools`,
          description: `Bring ${PRODUCT_NAME} to your classroom: voice-first podcasting that helps every learner plan, speak and share. Get a tailored quote or book a 30-minute call.`,
          heading: SCHOOLS_HEADING,
          element: <SchoolsPage />,
        }
      : null,
    {
      path: ROUTE_PATHS.about,
      title: 'About Us',
      description: `Why we built ${PRODUCT_NAME}: helping children grow through voice, and how it started.`,
      heading: 'About Us',
      element: <AboutPage />,
    },
    {
      path: ROUTE_PATHS.guidelines,
      title: 'User Guidelines',
      description: `How children, parents and moderators keep ${PRODUCT_NAME} kind and safe, and how a podcast gets published.`,
      heading: 'User Guidelines',
      element: <GuidelinesPage />,
    },
    {
      path: ROUTE_PATHS.privacy,
      title: 'Privacy Policy',
      description: `What ${PRODUCT_NAME} collects about parents and children, why, how long we keep it and your rights under UK law.`,
      heading: 'Privacy Policy',
      element: <PrivacyPage />,
    },
    {
      path: ROUTE_PATHS.terms,
      title: 'Terms & Conditions',
      description: `The terms for using ${PRODUCT_NAME}: accounts, parental consent, publishing and acceptable use.`,
      heading: 'Terms & Conditions',
      element: <TermsPage />,
    },
  ];
  return routes.filter((route): route is RouteDefinition => route !== null);
}

/** Full document title for a route. */
export function documentTitle(route: RouteDefinition): string {
  return route.title.includes(PRODUCT_NAME) ? route.title : `${route.title} | ${PRODUCT_NAME}`;
}
