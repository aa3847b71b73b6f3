import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from '@/app/app';
import { buildRoutes, preloadRoute } from '@/app/routes';
import { flags } from '@/config/flags';

/** Hydrates the prerendered page (or renders it, on the dev server) once its chunk is loaded. */
export async function start(container: HTMLElement): Promise<void> {
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );

  const routes = buildRoutes({ schoolsPageOn: flags.SCHOOLS_PAGE });
  // Load this page's chunk first so hydration renders exactly what was prerendered.
  await preloadRoute(routes, window.location.pathname.replace(/(.)\/$/, '$1'));

  // Prerendered pages arrive with their markup: hydrate it. The dev server sends an empty root.
  // As a transition, hydration yields to the browser every few milliseconds instead of blocking
  // the main thread in one long task (lower Total Blocking Time on slow phones).
  if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);

  // Then, when the browser is idle, fetch the other pages (a few KB each) so moving between
  // pages is instant, even if the connection drops.
  const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 2000));
  idle(() => {
    for (const route of routes) void preloadRoute(routes, route.path).catch(() => undefined);
  });
}
