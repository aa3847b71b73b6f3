import type { ComponentType } from 'react';
import { lazyPage, type LazyPage } from './lazy-page.tsx';
import type { FeatureFlag } from '#src/config/flags.ts';
import {
  NOT_FOUND,
  pageComponentName,
  pageModuleName,
  ROUTE_LIST,
  routesOn,
  type NamedRoute,
  type RouteEntry,
} from '#src/config/site.ts';
import { NotFoundPage } from '#src/pages/not-found-page.tsx';

/** Every page module but the not-found page (in the shell), each its own chunk; keyed './about-page.tsx'. */
const PAGE_MODULES = import.meta.glob<Readonly<Record<string, ComponentType>>>(
  ['./*-page.tsx', '!./not-found-page.tsx'],
  { base: '/src/pages' },
);

/** The route's page in its own chunk; a content page is static (src/app/lazy-page.tsx). */
function pageOf(route: NamedRoute): LazyPage {
  const file = `${pageModuleName(route.name)}.tsx`;
  // A route without its module, or a module without its component, fails tests/component/app.test.tsx.
  const load = PAGE_MODULES[`./${file}`]!;
  return lazyPage(
    `src/pages/${file}`, // As the build manifest names it.
    () => load().then((module) => module[pageComponentName(route.name)]!),
    { isStatic: route.kind === 'content' },
  );
}

/** One page object per route, made once: each remembers whether its chunk has loaded. */
const PAGES = new Map(ROUTE_LIST.map((route) => [route.name, pageOf(route)]));

/** What a route needs for the router, the document head, the sitemap and the prerenderer. */
export type RouteDefinition = Pick<RouteEntry, 'title' | 'description' | 'heading' | 'kind'> & {
  /** Route path, or '*' for the not-found page. */
  readonly path: string;
  /** The page component; lazy pages are preloaded before hydration and prerendering. */
  readonly Page: LazyPage | (() => React.JSX.Element);
};

export const NOT_FOUND_ROUTE: RouteDefinition = { ...NOT_FOUND, Page: NotFoundPage };

/** The site's routes in this build: those behind a flag that is off are left out. */
export function buildRoutes(flagsOn: Readonly<Partial<Record<FeatureFlag, boolean>>>): RouteDefinition[] {
  return routesOn(flagsOn).map((route) => ({ ...route, Page: PAGES.get(route.name)! }));
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
