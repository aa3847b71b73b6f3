import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, StaticRouter } from 'react-router-dom';
import { Header, HEADER_TEXT, isScrolledPastThreshold } from '#src/components/header.tsx';
import { LINKS } from '#src/config/site.ts';

function renderHeader({ path = '/', schoolsPageOn = true } = {}) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Header schoolsPageOn={schoolsPageOn} />
    </MemoryRouter>,
  );
}

function setScrollY(value: number) {
  Object.defineProperty(window, 'scrollY', { value, configurable: true });
  fireEvent.scroll(window);
}

describe('Header', () => {
  afterEach(() => setScrollY(0));

  it('shows the desktop links in order, with social icons that have names', () => {
    renderHeader();
    const nav = screen.getByRole('navigation', { name: HEADER_TEXT.mainNav });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent?.replace(' (opens in a new tab)', ''))).toEqual([
      'Home',
      'Schools',
      'Blog',
      'About Us',
      'Newsletter',
      '',
      '',
      '',
    ]);
    expect(within(nav).getByRole('link', { name: /LinkedIn/ })).toHaveAttribute('href', LINKS.linkedIn);
    expect(within(nav).getByRole('link', { name: /Instagram/ })).toHaveAttribute('href', LINKS.instagram);
  });

  it('opens external links in a new tab without opener', () => {
    renderHeader();
    const blog = within(screen.getByRole('navigation', { name: HEADER_TEXT.mainNav })).getByRole('link', {
      name: /Blog/,
    });
    expect(blog).toHaveAttribute('href', LINKS.blog);
    expect(blog).toHaveAttribute('target', '_blank');
    expect(blog).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('hides the Schools link when the schools page is off', () => {
    renderHeader({ schoolsPageOn: false });
    const nav = screen.getByRole('navigation', { name: HEADER_TEXT.mainNav });
    expect(within(nav).queryByRole('link', { name: 'Schools' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'About Us' })).toBeInTheDocument();
  });

  it('marks the active route as the current page', () => {
    renderHeader({ path: '/about' });
    const nav = screen.getByRole('navigation', { name: HEADER_TEXT.mainNav });
    expect(within(nav).getByRole('link', { name: 'About Us' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('turns translucent only once scrolled more than 10 px', () => {
    const { container } = renderHeader();
    const header = container.querySelector('header');
    expect(header).toHaveAttribute('data-scrolled', 'false');
    act(() => setScrollY(10));
    expect(header).toHaveAttribute('data-scrolled', 'false');
    expect(header).not.toHaveClass('site-header--scrolled');
    act(() => setScrollY(11));
    expect(header).toHaveAttribute('data-scrolled', 'true');
    expect(header).toHaveClass('site-header--scrolled');
    act(() => setScrollY(3));
    expect(header).toHaveAttribute('data-scrolled', 'false');
  });

  it('pins the threshold at 10 px', () => {
    expect(isScrolledPastThreshold(0)).toBe(false);
    expect(isScrolledPastThreshold(10)).toBe(false);
    expect(isScrolledPastThreshold(10.5)).toBe(true);
  });

  /** The phone menu: a native <details>, whose summary is its toggle. */
  function phoneMenu(container: HTMLElement) {
    const details = container.querySelector<HTMLDetailsElement>('details.site-header__menu');
    const toggle = details?.querySelector<HTMLElement>('summary.site-header__menu-button');
    if (!details || !toggle) throw new Error('no phone menu');
    const panel = within(details).getByRole('navigation', { name: HEADER_TEXT.mobileNav });
    return { details, toggle, panel };
  }

  const mobileLabels = (panel: HTMLElement) =>
    within(panel)
      .getAllByRole('link')
      .map((link) => link.textContent?.replace(' (opens in a new tab)', ''))
      .filter(Boolean);

  /** The phone menu's links, in order, with the schools page on. */
  const MOBILE_LABELS = ['Product', 'Blog', 'Schools', 'About Us', 'Newsletter', HEADER_TEXT.waitlistCta];

  it('toggles the mobile menu from its summary and lists the mobile links', async () => {
    const user = userEvent.setup();
    const { details, toggle, panel } = phoneMenu(renderHeader().container);
    expect(details.open).toBe(false);
    expect(toggle).toHaveTextContent(HEADER_TEXT.openMenu);
    expect(toggle).toHaveTextContent(HEADER_TEXT.closeMenu);

    await user.click(toggle);
    expect(details.open).toBe(true);
    expect(mobileLabels(panel)).toEqual(MOBILE_LABELS);
    expect(within(panel).getAllByRole('link', { name: /on (LinkedIn|Facebook|Instagram)/ })).toHaveLength(3);

    await user.click(toggle);
    expect(details.open).toBe(false);
  });

  it('closes the mobile menu on Escape and returns focus to its toggle', async () => {
    const user = userEvent.setup();
    const { details, toggle } = phoneMenu(renderHeader().container);
    await user.click(toggle);
    await user.tab();
    expect(toggle).not.toHaveFocus();
    await user.keyboard('{Escape}');
    expect(details.open).toBe(false);
    expect(toggle).toHaveFocus();
  });

  it('closes the mobile menu when a link navigates', async () => {
    const user = userEvent.setup();
    const { details, toggle, panel } = phoneMenu(renderHeader({ path: '/about' }).container);
    await user.click(toggle);
    await user.click(within(panel).getByRole('link', { name: 'Product' }));
    expect(details.open).toBe(false);
  });

  it('leaves Schools out of the mobile menu when the schools page is off', () => {
    const { panel } = phoneMenu(renderHeader({ schoolsPageOn: false }).container);
    expect(within(panel).queryByRole('link', { name: 'Schools' })).not.toBeInTheDocument();
  });

  describe('before hydration and without JavaScript', () => {
    const prerendered = () =>
      renderToString(
        <StaticRouter location="/about">
          <Header schoolsPageOn />
        </StaticRouter>,
      );

    it('the phone menu is the same native disclosure: it opens with no script', () => {
      const container = document.createElement('div');
      container.innerHTML = prerendered();
      const { toggle, panel } = phoneMenu(container);
      expect(toggle).toHaveTextContent(HEADER_TEXT.openMenu);
      expect(mobileLabels(panel)).toEqual(MOBILE_LABELS);
      expect(container.querySelector('button.site-header__menu-button')).toBeNull();
    });

    it('hydration keeps the menu open if it was opened, and focus on its toggle', async () => {
      const container = document.createElement('div');
      container.innerHTML = prerendered();
      document.body.append(container);
      const { details, toggle } = phoneMenu(container);
      details.open = true;
      toggle.focus();
      await act(async () => {
        hydrateRoot(
          container,
          <MemoryRouter initialEntries={['/about']}>
            <Header schoolsPageOn />
          </MemoryRouter>,
        );
      });
      expect(phoneMenu(container).details).toBe(details);
      expect(details.open).toBe(true);
      expect(toggle).toHaveFocus();
      container.remove();
    });
  });
});
