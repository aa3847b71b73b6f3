/**
 * Prerender entry: renders each route to HTML at build time (scripts/vite-plugins/prerender.ts), so a
 * phone paints the page before any JavaScript runs and crawlers see real content.
 */
import { StrictMode, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from './app/app.tsx';
import { renderHeadTags } from './app/document-head.ts';
import {
  escapeHtml,
  FORM_ANSWER_REGION_ATTRIBUTE,
  regionEnd,
  regionStart,
  linkPageSlot,
} from './lib/page-templates.ts';
import { Layout } from './app/layout.tsx';
import { buildRoutes, NOT_FOUND_ROUTE, preloadRoute, type RouteDefinition } from './app/routes.tsx';
import { WAITLIST_ANCHOR_ID } from './config/constants.ts';
import { flags } from './config/flags.ts';
import { PRODUCT_NAME } from './config/site.ts';
import { QuoteAnswerPage } from './features/quote/quote-answer-page.tsx';
import { WaitlistAnswerPage } from './features/waitlist/waitlist-answer-page.tsx';
import { EmailLinkPage } from './features/email-links/email-link-page.tsx';
import formStateStyles from './styles/form-states.css?inline';
import globalStyles from './styles/global.css?inline';
import storeButtonStyles from './styles/home.css?inline';
import linkPageStyles from './styles/link-page.css?inline';
import { FORMS, type FormName } from './lib/forms/forms.ts';
import { SCHOOLS_SECTION_IDS } from './pages/schools-page.tsx';
import type { FormTemplatePage, PrerenderedPage } from '#scripts/vite-plugins/prerender.ts';

/** The page the router shows at `location`, as HTML. */
function renderAt(location: string, page: ReactNode): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location={location}>{page}</StaticRouter>
    </StrictMode>,
  );
}

function modulePathOf(route: RouteDefinition): string | null {
  return 'modulePath' in route.Page ? route.Page.modulePath : null;
}

/** Renders every route of this build (flags included) plus the not-found page. */
export async function prerenderAll(): Promise<PrerenderedPage[]> {
  const routes = buildRoutes(flags);
  await Promise.all(routes.map((route) => preloadRoute(routes, route.path)));
  return [...routes, NOT_FOUND_ROUTE].map((route) => ({
    path: route.path,
    heading: route.heading,
    head: renderHeadTags(route, route.path),
    html: renderAt(route === NOT_FOUND_ROUTE ? '/404' : route.path, <App />),
    modulePath: modulePathOf(route),
    isStatic: 'isStatic' in route.Page && route.Page.isStatic,
  }));
}

/**
 * Each form's answer page and the anchor of the form on its page (the page that holds it is the
 * route at its contract's `page`, its title the contract's `words`; src/lib/forms/): the two are
 * its feature's and its page's, which a contract, below them, cannot import.
 */
const FORM_ANSWERS: Record<FormName, { anchorId: string; page: (backHref: string) => ReactNode }> = {
  waitlist: { anchorId: WAITLIST_ANCHOR_ID, page: (backHref) => <WaitlistAnswerPage backHref={backHref} /> },
  quote: { anchorId: SCHOOLS_SECTION_IDS.quote, page: (backHref) => <QuoteAnswerPage backHref={backHref} /> },
};

/**
 * The answer template of each form whose page this build has (the quote form needs the schools
 * page): the whole frame (header, footer) around the form's answer page, with no route, no
 * script, and noindex. Its URL is the form's action, so the page must not boot the app there.
 */
export async function renderFormTemplates(): Promise<FormTemplatePage[]> {
  const routes = buildRoutes(flags);
  const templates: FormTemplatePage[] = [];
  for (const form of Object.keys(FORM_ANSWERS) as FormName[]) {
    const route = routes.find(({ path }) => path === FORMS[form].page);
    const modulePath = route ? modulePathOf(route) : null;
    if (!modulePath) continue;
    templates.push({ form, ...renderFormTemplate(form), modulePath });
  }
  return templates;
}

/**
 * One form's answer template: its head (the title, with 'Error: ' first when the answer is an
 * error, and noindex) and body. The dev server renders it on demand
 * (scripts/vite-plugins/form-templates.ts).
 */
export function renderFormTemplate(form: FormName): { head: string; html: string } {
  const answer = FORM_ANSWERS[form];
  // From the whole table, whatever this build's flags: the dev server renders any form's answer.
  const backHref = `${FORMS[form].page}#${answer.anchorId}`;
  const title = escapeHtml(`${FORMS[form].words.answerTitle} | ${PRODUCT_NAME}`);
  const head = [
    `<title>${regionStart(FORM_ANSWER_REGION_ATTRIBUTE, 'error')}Error: ${regionEnd(FORM_ANSWER_REGION_ATTRIBUTE, 'error')}${title}</title>`,
    '<meta name="robots" content="noindex" />',
    `<style>${formStateStyles.replace(/<\/style/gi, '<\\/style')}</style>`,
  ].join('\n    ');
  return { head, html: renderAt(FORMS[form].path, <Layout>{answer.page(backHref)}</Layout>) };
}

/**
 * The template of the page an email's link opens (src/server/links.ts fills it per request):
 * the site's frame around every part such a page can show, its styles inline (the global ones,
 * the store buttons', its own), no script, noindex, and the title a slot. The same in the build
 * (prerender.ts writes it) and on the dev server (form-templates.ts renders it on demand).
 */
export function renderLinkPageTemplate(): { head: string; html: string } {
  const styles = [globalStyles, storeButtonStyles, linkPageStyles]
    .join('\n')
    .replace(/<\/style/gi, '<\\/style');
  const head = [
    `<title>${linkPageSlot('title')}</title>`,
    '<meta name="robots" content="noindex" />',
    `<style>${styles}</style>`,
  ].join('\n    ');
  // Where the links live (/api/email/…): no route there, so no navigation entry is marked current.
  const html = renderAt(
    '/api/email',
    <Layout>
      <EmailLinkPage />
    </Layout>,
  );
  return { head, html };
}
