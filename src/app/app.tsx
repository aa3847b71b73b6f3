import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Layout } from './layout.tsx';
import { RouteEffects } from './route-effects.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { buildRoutes, NOT_FOUND_ROUTE, type RouteDefinition } from './routes.tsx';
import { flags } from '#src/config/flags.ts';

function routeElement(route: RouteDefinition) {
  const { Page } = route;
  return (
    <>
      <RouteEffects route={route} />
      <RouteErrorBoundary resetKey={route.path}>
        <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
          <Page />
        </Suspense>
      </RouteErrorBoundary>
    </>
  );
}

/** The whole site; the router itself is provided by the client or the prerenderer. */
export function App({ schoolsPageOn = flags.SCHOOLS_PAGE }: { schoolsPageOn?: boolean }) {
  return (
    <Layout>
      <Routes>
        {buildRoutes({ ...flags, SCHOOLS_PAGE: schoolsPageOn }).map((route) => (
          <Route key={route.path} path={route.path} element={routeElement(route)} />
        ))}
        <Route path={NOT_FOUND_ROUTE.path} element={routeElement(NOT_FOUND_ROUTE)} />
      </Routes>
    </Layout>
  );
}
