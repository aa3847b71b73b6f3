import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from '@/app/app';
import { buildRoutes, preloadRoute } from '@/app/routes';
import { flags } from '@/config/flags';
import '@/styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

const app = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>
);

// Load this page's chunk first so hydration renders exactly what was prerendered.
await preloadRoute(
  buildRoutes({ schoolsPageOn: flags.SCHOOLS_PAGE }),
  window.location.pathname.replace(/(.)\/$/, '$1'),
);

// Prerendered pages arrive with their markup: hydrate it. The dev server sends an empty root.
// As a transition, hydration yields to the browser every few milliseconds instead of blocking
// the main thread in one long task (lower Total Blocking Time on slow phones).
if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
else createRoot(container).render(app);
