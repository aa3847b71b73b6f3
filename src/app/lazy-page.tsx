import { lazy, useEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { internalPathOf } from './internal-path.ts';

/** A route's page, split into its own chunk, that renders synchronously once preloaded. */
export type LazyPage = ComponentType & {
  /** Loads the page's chunk; the prerenderer, prefetching and client-side navigation call it. */
  preload: () => Promise<ComponentType>;
  /** Before hydration: a static page adopts its prerendered markup, any other page loads its chunk. */
  prepareHydration: () => Promise<void>;
  /** Source path of the page module, to find its chunk in the build manifest. */
  readonly modulePath: string;
  /** Text and links only: hydration keeps the prerendered markup instead of loading the page. */
  readonly isStatic: boolean;
};

/** Marks the element that holds a static page's markup; its value names the page. */
export const STATIC_PAGE_ATTRIBUTE = 'data-static-page';

type StaticPageHolderProps = { name: string; html: string | null; children: ReactNode };

/**
 * Holds a static page. Adopted markup is plain HTML, so links in it to other pages of the site
 * are routed here, as the page's own <Link>s would be (a full load would also work, but slower).
 */
function StaticPageHolder({ name, html, children }: StaticPageHolderProps) {
  const holder = useRef<HTMLDivElement | null>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const element = holder.current;
    if (!element) return undefined;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return;
      const path = internalPathOf(link);
      // Other sites, mail links, files, and in-page anchors keep the browser's own behaviour.
      if (path === null || (link.pathname === window.location.pathname && link.hash)) return;
      event.preventDefault();
      void navigate(`${link.pathname}${link.search}${link.hash}`);
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, [navigate]);
  const attributes = { ref: holder, className: 'static-page', [STATIC_PAGE_ATTRIBUTE]: name };
  return html === null ? (
    <div {...attributes}>{children}</div>
  ) : (
    <div {...attributes} dangerouslySetInnerHTML={{ __html: html }} />
  );
}

/**
 * Wraps a page loader so the first render after `preload()` needs no Suspense: hydration of
 * prerendered HTML then matches exactly, and only client-side navigation to a page not yet
 * loaded suspends (inside a transition, so the old page stays until the new one is ready).
 * A static page (`isStatic`) is wrapped in a holder element: on the page's first load the holder
 * keeps its prerendered markup as it is, so the page's text never has to arrive as JavaScript.
 */
export function lazyPage(
  modulePath: string,
  loader: () => Promise<ComponentType>,
  { isStatic = false }: { isStatic?: boolean } = {},
): LazyPage {
  // 'src/pages/privacy-page.tsx' → 'privacy-page'.
  const name = modulePath.replace(/^.*\//, '').replace(/\.[a-z]+$/, '');
  let loaded: ComponentType | null = null;
  let pending: Promise<ComponentType> | null = null;
  let adoptedHtml: string | null = null;
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
  const prepareHydration = async () => {
    if (isStatic) {
      const holder = document.querySelector(`#main > [${STATIC_PAGE_ATTRIBUTE}="${name}"]`);
      if (holder) {
        adoptedHtml = holder.innerHTML;
        return;
      }
    }
    await preload();
  };
  const Suspending = lazy(() => preload().then((component) => ({ default: component })));
  function Page() {
    const Loaded = loaded;
    const content = Loaded ? <Loaded /> : <Suspending />;
    if (!isStatic) return content;
    return (
      <StaticPageHolder name={name} html={adoptedHtml}>
        {content}
      </StaticPageHolder>
    );
  }
  return Object.assign(Page, { preload, prepareHydration, modulePath, isStatic });
}
