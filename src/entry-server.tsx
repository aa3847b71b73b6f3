/**
 * Prerender entry: renders each route to HTML at build time (scripts/vite-plugins/prerender.ts), so a
 * phone paints the page before any JavaScript runs and crawlers see real content.
 */
import { StrictMode, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from '@/app/app';
import { renderHeadTags } from '@/app/document-head';
import { escapeHtml } from '@/lib/escape-html';
import { Layout } from '@/app/layout';
import { buildRoutes, NOT_FOUND_ROUTE, preloadRoute, type RouteDefinition } from '@/app/routes';
import { WAITLIST_ANCHOR_ID } from '@/config/constants';
import { env } from '@/config/env';
import { flags } from '@/config/flags';
import { PRODUCT_NAME, ROUTE_PATHS } from '@/config/site';
import { QuoteAnswerPage } from '@/features/quote/quote-answer-page';
import { WaitlistAnswerPage } from '@/features/waitlist/waitlist-answer-page';
import { FORM_POST_PATHS, type NativeFormName } from '@/lib/airtable/relay-protocol';
import { formAnswerRegionEnd, formAnswerRegionStart } from '@/lib/form-answer';
import { SCHOOLS_SECTION_IDS } from '@/pages/schools-page';

export type PrerenderedPage = {
  /** Route path, or '*' for the not-found page. */
  path: string;
  heading: string;
  head: string;
  html: string;
  /** Source module of the page's own chunk, to preload it and its CSS from the HTML. */
  modulePath: string | null;
  /** The page hydrates without its chunk (its CSS is still the page's). */
  isStatic: boolean;
};

function renderPath(url: string): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location={url}>
        <App />
      </StaticRouter>
    </StrictMode>,
  );
}

function modulePathOf(route: RouteDefinition): string | null {
  return 'modulePath' in route.Page ? route.Page.modulePath : null;
}

function isStatic(route: RouteDefinition): boolean {
  return 'isStatic' in route.Page && route.Page.isStatic;
}

/** Renders every route of this build (flags included) plus the not-found page. */
export async function prerenderAll(): Promise<PrerenderedPage[]> {
  const routes = buildRoutes({ schoolsPageOn: flags.SCHOOLS_PAGE });
  await Promise.all(routes.map((route) => preloadRoute(routes, route.path)));
  const pages: PrerenderedPage[] = routes.map((route) => ({
    path: route.path,
    heading: route.heading,
    head: renderHeadTags(route, route.path),
    html: renderPath(route.path),
    modulePath: modulePathOf(route),
    isStatic: isStatic(route),
  }));
  pages.push({
    path: NOT_FOUND_ROUTE.path,
    heading: NOT_FOUND_ROUTE.heading,
    head: renderHeadTags(NOT_FOUND_ROUTE, NOT_FOUND_ROUTE.path),
    html: renderPath('/404'),
    modulePath: modulePathOf(NOT_FOUND_ROUTE),
    isStatic: isStatic(NOT_FOUND_ROUTE),
  });
  return pages;
}

export const siteUrl = env.siteUrl;

/** A form's answer template as rendered: the server fills it per native post (src/server/form-page.ts). */
export type FormTemplatePage = {
  form: NativeFormName;
  head: string;
  html: string;
  /** Source module of the form's own page: the template carries that page's CSS. */
  modulePath: string;
};

/** Each form's page, its answer page and its document title. */
const FORM_ANSWERS: Record<
  NativeFormName,
  { pagePath: string; title: string; page: (backHref: string) => ReactNode; backHref: string }
> = {
  waitlist: {
    pagePath: ROUTE_PATHS.home,
    title: 'Join the waitlist',
    backHref: `${ROUTE_PATHS.home}#${WAITLIST_ANCHOR_ID}`,
    page: (backHref) => <WaitlistAnswerPage backHref={backHref} />,
  },
  quote: {
    pagePath: ROUTE_PATHS.schools,
    title: 'Get a Quote',
    backHref: `${ROUTE_PATHS.schools}#${SCHOOLS_SECTION_IDS.quote}`,
    page: (backHref) => <QuoteAnswerPage backHref={backHref} />,
  },
};

/**
 * The answer template of each form whose page this build has (the quote form needs the schools
 * page): the whole frame (header, footer) around the form's answer page, with no route, no
 * script, and noindex. Its URL is the form's action, so the page must not boot the app there.
 */
export async function renderFormTemplates(): Promise<FormTemplatePage[]> {
  const routes = buildRoutes({ schoolsPageOn: flags.SCHOOLS_PAGE });
  const templates: FormTemplatePage[] = [];
  for (const form of Object.keys(FORM_ANSWERS) as NativeFormName[]) {
    const answer = FORM_ANSWERS[form];
    const route = routes.find((candidate) => candidate.path === answer.pagePath);
    const modulePath = route ? modulePathOf(route) : null;
    if (!route || !modulePath) continue;
    templates.push({ form, ...renderFormTemplate(form), modulePath });
  }
  return templates;
}

/**
 * One form's answer template: its head (the title, with 'Error: ' first when the answer is an
 * error, and noindex) and body. The dev server renders it on demand
 * (scripts/vite-plugins/form-templates.ts).
 */
export function renderFormTemplate(form: NativeFormName): { head: string; html: string } {
  const answer = FORM_ANSWERS[form];
  const title = escapeHtml(`${answer.title} | ${PRODUCT_NAME}`);
  const head = [
    `<title>${formAnswerRegionStart('error')}Error: ${formAnswerRegionEnd('error')}${title}</title>`,
    '<meta name="robots" content="noindex" />',
  ].join('\n    ');
  const html = renderToString(
    <StrictMode>
      <StaticRouter location={FORM_POST_PATHS[form]}>
        <Layout>{answer.page(answer.backHref)}</Layout>
      </StaticRouter>
    </StrictMode>,
  );
  return { head, html };
}
