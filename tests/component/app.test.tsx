import { readdirSync } from 'node:fs';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { App } from '#src/app/app.tsx';
import { buildRoutes, preloadRoute } from '#src/app/routes.tsx';
import { HASH_SCROLL_DELAY_MS } from '#src/config/constants.ts';
import { pageModuleName, ROUTE_LIST } from '#src/config/site.ts';
import { MESSAGES } from '#src/config/messages.ts';
import { CONSENT_TEXT } from '#src/content/consent.ts';
import { RESERVED_BOTTOM_PROPERTY } from '#src/lib/use-reserved-bottom-space.ts';
import { resetConsentForTests } from '#src/features/consent/consent-store.ts';
import { CONSENT_STORAGE_KEY } from '#src/lib/page-marks.ts';

function renderAt(path: string, { schoolsPageOn = true } = {}) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App schoolsPageOn={schoolsPageOn} />
    </MemoryRouter>,
  );
}

beforeAll(async () => {
  const routes = buildRoutes({ SCHOOLS_PAGE: true });
  await Promise.all(routes.map((route) => preloadRoute(routes, route.path)));
});

describe('App routes', () => {
  beforeEach(() => {
    resetConsentForTests();
    window.localStorage.setItem(CONSENT_STORAGE_KEY, 'denied');
  });

  it.each(
    buildRoutes({ SCHOOLS_PAGE: true }).map((route) => [route.path, route.heading, route.title] as const),
  )('%s renders its one h1 and sets its title', async (path, heading, title) => {
    renderAt(path);
    const headings = screen.getAllByRole('heading', { level: 1 });
    expect(headings).toHaveLength(1);
    expect(headings[0]).toHaveTextContent(heading);
    await waitFor(() => expect(document.title).toContain(title));
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('routes every page module in src/pages/ (the not-found page aside)', () => {
    const modules = readdirSync('src/pages').filter((file) => file !== 'not-found-page.tsx');
    expect(modules.sort()).toEqual(ROUTE_LIST.map((route) => `${pageModuleName(route.name)}.tsx`).sort());
  });

  it('renders the not-found page for any other path, with a way home', async () => {
    const user = userEvent.setup();
    renderAt('/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: MESSAGES.notFoundTitle })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/Page not found/));
    await user.click(screen.getByRole('button', { name: MESSAGES.notFoundButton }));
    expect(screen.queryByText(MESSAGES.notFoundTitle)).not.toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })[0]).toHaveTextContent(
      buildRoutes({ SCHOOLS_PAGE: true })[0]!.heading,
    );
  });

  it('treats /schools as not found when the schools page is off', () => {
    renderAt('/schools', { schoolsPageOn: false });
    expect(screen.getByRole('heading', { level: 1, name: MESSAGES.notFoundTitle })).toBeInTheDocument();
  });

  it('scrolls to #waitlist after the spec delay', () => {
    vi.useFakeTimers();
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    renderAt('/#waitlist');
    act(() => vi.advanceTimersByTime(HASH_SCROLL_DELAY_MS - 1));
    expect(scrollIntoView).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('waitlist'));
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
    vi.useRealTimers();
  });
});

describe('Consent banner', () => {
  beforeEach(() => resetConsentForTests());

  it('asks until the visitor chooses, with equal Accept and Reject buttons, and remembers the choice', async () => {
    const user = userEvent.setup();
    const view = renderAt('/about');
    const accept = screen.getByRole('button', { name: CONSENT_TEXT.accept });
    const reject = screen.getByRole('button', { name: CONSENT_TEXT.reject });
    expect(accept.className).toBe(reject.className);
    await user.click(reject);
    expect(screen.queryByRole('button', { name: CONSENT_TEXT.accept })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toBe('denied');
    view.unmount();
    renderAt('/about');
    expect(screen.queryByRole('button', { name: CONSENT_TEXT.accept })).not.toBeInTheDocument();
  });

  it('can be reopened from the footer to change the choice', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(CONSENT_STORAGE_KEY, 'denied');
    renderAt('/about');
    await user.click(screen.getByRole('button', { name: 'Cookie settings' }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: CONSENT_TEXT.accept }));
    expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toBe('granted');
    expect(screen.queryByRole('button', { name: CONSENT_TEXT.reject })).not.toBeInTheDocument();
    // No measurement id in unit tests: analytics stays off and says so on the console.
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringMatching(/No measurement id/)));
  });

  it('reserves its height at the bottom of the scroll area only while it is open', async () => {
    const user = userEvent.setup();
    renderAt('/about');
    const reserved = () => document.documentElement.style.getPropertyValue(RESERVED_BOTTOM_PROPERTY);
    // jsdom lays nothing out, so the height is 0px; the browser test checks real geometry.
    expect(reserved()).toMatch(/^\d+px$/);
    await user.click(screen.getByRole('button', { name: CONSENT_TEXT.reject }));
    expect(reserved()).toBe('');
  });
});
