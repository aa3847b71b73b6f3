import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage, STATIC_PAGE_ATTRIBUTE, type LazyPage } from '#src/app/lazy-page.tsx';

function FakeContent() {
  return (
    <article>
      <h1>Static text</h1>
      <p>
        Read the <a href="/other">other page</a>, the <a href="#part-two">second part</a> or{' '}
        <a href="https://example.org/">another site</a>.
      </p>
    </article>
  );
}

function site(Page: LazyPage, path = '/static') {
  return (
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/static" element={<Page />} />
        <Route path="/other" element={<h1>Other page</h1>} />
      </Routes>
    </MemoryRouter>
  );
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

/** Prerenders with a loaded copy of the page, as the build does, and returns its #main. */
async function prerendered(): Promise<HTMLElement> {
  const ServerPage = lazyPage('src/pages/static-page.tsx', () => Promise.resolve(FakeContent), {
    isStatic: true,
  });
  await ServerPage.preload();
  const main = document.createElement('main');
  main.id = 'main';
  main.innerHTML = renderToString(site(ServerPage));
  document.body.append(main);
  return main;
}

describe('a static page', () => {
  it('is prerendered inside a holder named after its module', async () => {
    const main = await prerendered();
    const holder = main.querySelector(`[${STATIC_PAGE_ATTRIBUTE}]`);
    expect(holder?.getAttribute(STATIC_PAGE_ATTRIBUTE)).toBe('static-page');
    expect(holder?.querySelector('h1')?.textContent).toBe('Static text');
  });

  it('hydrates its prerendered markup without loading its code, and routes its links', async () => {
    const main = await prerendered();
    const loader = vi.fn(() => Promise.resolve(FakeContent));
    const Page = lazyPage('src/pages/static-page.tsx', loader, { isStatic: true });
    const errors = vi.spyOn(console, 'error');
    await Page.prepareHydration();
    await act(async () => {
      root = hydrateRoot(main, site(Page));
    });
    expect(loader).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { level: 1, name: 'Static text' })).toBeVisible();

    // Links to other sites and in-page anchors are left to the browser.
    for (const name of ['another site', 'second part']) {
      let leftToBrowser = false;
      document.addEventListener(
        'click',
        (event) => {
          leftToBrowser = !event.defaultPrevented;
          event.preventDefault(); // jsdom cannot follow it
        },
        { once: true },
      );
      screen.getByRole('link', { name }).click();
      expect(leftToBrowser, name).toBe(true);
    }
    // A link to another page of the site navigates in the app, as a <Link> would.
    await userEvent.setup().click(screen.getByRole('link', { name: 'other page' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Other page' })).toBeVisible());
    expect(loader).not.toHaveBeenCalled();
  });

  it('loads its code when the browser has no markup for it (client-side navigation)', async () => {
    const loader = vi.fn(() => Promise.resolve(FakeContent));
    const Page = lazyPage('src/pages/static-page.tsx', loader, { isStatic: true });
    const main = document.createElement('main');
    main.id = 'main';
    document.body.append(main);
    await Page.prepareHydration();
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('a page that is not static always loads its code before hydrating', async () => {
    await prerendered();
    const loader = vi.fn(() => Promise.resolve(FakeContent));
    const Page = lazyPage('src/pages/static-page.tsx', loader);
    await Page.prepareHydration();
    expect(loader).toHaveBeenCalledTimes(1);
  });
});
