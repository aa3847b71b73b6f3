import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app.tsx';
import { routePath } from './internal-path.ts';
import { prefetchOnIntent } from './prefetch.ts';
import { buildRoutes, prepareHydration } from './routes.tsx';
import { flags } from '#src/config/flags.ts';

/** Hydrates the prerendered page (or renders it, on the dev server) once its chunk is loaded. */
export async function start(container: HTMLElement): Promise<void> {
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );

  const routes = buildRoutes(flags);
  // This page's chunk first (a static page keeps its markup) so hydration matches the prerender.
  await prepareHydration(routes, routePath(window.location.pathname));

  // The dev server sends an empty root. As a transition, hydration yields to the browser every few
  // milliseconds instead of one long task (lower Total Blocking Time on slow phones).
  if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);

  prefetchOnIntent(routes);
}
