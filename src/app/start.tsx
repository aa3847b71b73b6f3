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
  // Load this page's chunk first (a static page keeps its markup instead) so hydration renders
  // exactly what was prerendered.
  await prepareHydration(routes, routePath(window.location.pathname));

  // Prerendered pages arrive with their markup: hydrate it. The dev server sends an empty root.
  // As a transition, hydration yields to the browser every few milliseconds instead of blocking
  // the main thread in one long task (lower Total Blocking Time on slow phones).
  if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);

  // Other pages' code is fetched on intent (hover, touch, focus) or, after load and once idle,
  // for links near the viewport: never while this page paints and hydrates.
  prefetchOnIntent(routes);
}
