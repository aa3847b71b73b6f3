import { lazy, type ComponentType } from 'react';

/** A route's page, split into its own chunk, that renders synchronously once preloaded. */
export type LazyPage = ComponentType & {
  /** Loads the page's chunk; the prerenderer and the client call it before rendering. */
  preload: () => Promise<ComponentType>;
  /** Source path of the page module, to find its chunk in the build manifest. */
  readonly modulePath: string;
};

/**
 * Wraps a page loader so the first render after `preload()` needs no Suspense: hydration of
 * prerendered HTML then matches exactly, and only client-side navigation to a page not yet
 * loaded suspends (inside a transition, so the old page stays until the new one is ready).
 */
export function lazyPage(modulePath: string, loader: () => Promise<ComponentType>): LazyPage {
  let loaded: ComponentType | null = null;
  let pending: Promise<ComponentType> | null = null;
  const preload = () => {
    pending ??= loader().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // Offline or a new deploy: let the next attempt fetch again.
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  const Suspending = lazy(() => preload().then((component) => ({ default: component })));
  function Page() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Suspending />;
  }
  return Object.assign(Page, { preload, modulePath });
}
