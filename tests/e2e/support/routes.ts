/**
 * The routes the e2e sites serve, from the route table (src/config/site.ts): every spec that
 * walks the pages reads them here, so a new page is visited, checked and measured without
 * touching a spec.
 */
import { routesOn } from '#src/config/site.ts';
import { FLAG_DEFAULTS } from '#src/config/settings.ts';

/** Every route of the default e2e build (built with the spec's flags: the schools page on). */
export const SITE_ROUTES = routesOn(FLAG_DEFAULTS);

/** Every route path of the default e2e build, in table order. */
export const SITE_PATHS = SITE_ROUTES.map((route) => route.path);

/** A path no route has: it gets the not-found page, answered 404. */
export const NOT_FOUND_PATH = '/no-such-page';
