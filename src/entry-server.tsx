/**
 * Prerender entry: renders each route to HTML at build time (scripts/vite-plugins/prerender.ts), so a
 * phone paints the page before any JavaScript runs and crawlers see real content.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from '@/app/app';
import { renderHeadTags } from '@/app/document-head';
import { buildRoutes, NOT_FOUND_ROUTE, preloadRoute, type RouteDefinition } from '@/app/routes';
import { env } from '@/config/env';
import { flags } from '@/config/flags';

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
