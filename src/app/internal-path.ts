/** A URL path as the routes spell it: '/about/' → '/about' ('/' stays '/'). */
export function routePath(pathname: string): string {
  return pathname.replace(/(.)\/$/, '$1');
}

/** The route path a link leads to on this site, or null for other origins, files and mail links. */
export function internalPathOf(link: HTMLAnchorElement): string | null {
  if (link.target && link.target !== '_self') return null;
  if (link.origin !== window.location.origin) return null;
  const path = routePath(link.pathname);
  return /\.[a-z0-9]+$/i.test(path) ? null : path;
}
