import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { LogoMark } from './brand-icons.tsx';
import { NavItemLink, visibleNavItems } from './nav-item-link.tsx';
import { SocialLinks } from './social-links.tsx';
import { WaitlistLink } from './waitlist-link.tsx';
import { HEADER_SCROLL_THRESHOLD_PX } from '#src/config/constants.ts';
import { flags } from '#src/config/flags.ts';
import { HEADER_NAV, MOBILE_NAV, PRODUCT_NAME, ROUTE_PATHS } from '#src/config/site.ts';
import { HEADER_SCROLLED } from '#src/lib/page-marks.ts';

export const HEADER_TEXT = {
  homeLink: `${PRODUCT_NAME} home`,
  mainNav: 'Main',
  mobileNav: 'Mobile',
  openMenu: 'Open menu',
  closeMenu: 'Close menu',
  waitlistCta: 'Join the waitlist',
} as const;

/** True once the page has scrolled past the header threshold (strictly more than 10 px). */
export function isScrolledPastThreshold(scrollY: number): boolean {
  return scrollY > HEADER_SCROLL_THRESHOLD_PX;
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      {open ? (
        <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      ) : (
        <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      )}
    </svg>
  );
}

/**
 * The phone menu: a native disclosure (<details>), so it opens before hydration and without
 * JavaScript, and the browser exposes its expanded state; its label and icon follow the open
 * state in CSS. Once hydrated, Escape closes it and returns focus to its toggle, and any
 * navigation closes it.
 */
export function Header({ schoolsPageOn = flags.SCHOOLS_PAGE }: { schoolsPageOn?: boolean }) {
  const [scrolled, setScrolled] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const closeMenu = () => menu.current?.removeAttribute('open');

  useEffect(() => {
    const update = () => setScrolled(isScrolledPastThreshold(window.scrollY));
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  // Any navigation closes the menu, Back and Forward included (not hydration: the visitor may
  // have opened it already).
  const lastLocationKey = useRef(location.key);
  useEffect(() => {
    if (lastLocationKey.current !== location.key) closeMenu();
    lastLocationKey.current = location.key;
  }, [location.key]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !menu.current?.open) return;
      closeMenu();
      menu.current.querySelector('summary')?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <header
      className={`site-header${scrolled ? ` ${HEADER_SCROLLED.className}` : ''}`}
      {...{ [HEADER_SCROLLED.attribute]: scrolled }}
    >
      <div className="site-header__inner">
        <Link
          to={ROUTE_PATHS.home}
          discover="none"
          className="site-header__brand"
          aria-label={HEADER_TEXT.homeLink}
        >
          <LogoMark />
          <span aria-hidden="true">{PRODUCT_NAME}</span>
        </Link>
        <nav className="site-header__nav" aria-label={HEADER_TEXT.mainNav}>
          <ul className="site-header__links">
            {visibleNavItems(HEADER_NAV, schoolsPageOn).map((item) => (
              <li key={item.label}>
                <NavItemLink item={item} className="site-header__link" />
              </li>
            ))}
          </ul>
          <SocialLinks className="social-links site-header__social" />
        </nav>
        <WaitlistLink className="button button--primary site-header__cta">
          {HEADER_TEXT.waitlistCta}
        </WaitlistLink>
        {/* The visitor may open it before hydration: its `open` attribute is theirs, not a mismatch. */}
        <details ref={menu} className="site-header__menu" suppressHydrationWarning>
          <summary className="site-header__menu-button">
            <span className="visually-hidden site-header__menu-label--closed">{HEADER_TEXT.openMenu}</span>
            <span className="visually-hidden site-header__menu-label--open">{HEADER_TEXT.closeMenu}</span>
            <span className="site-header__menu-icon--closed">
              <MenuIcon open={false} />
            </span>
            <span className="site-header__menu-icon--open">
              <MenuIcon open />
            </span>
          </summary>
          <nav className="site-header__panel" aria-label={HEADER_TEXT.mobileNav}>
            <ul className="site-header__panel-links">
              {visibleNavItems(MOBILE_NAV, schoolsPageOn).map((item) => (
                <li key={item.label}>
                  <NavItemLink item={item} className="site-header__panel-link" onNavigate={closeMenu} />
                </li>
              ))}
              <li>
                <WaitlistLink className="site-header__panel-link" onNavigate={closeMenu}>
                  {HEADER_TEXT.waitlistCta}
                </WaitlistLink>
              </li>
            </ul>
            <SocialLinks />
          </nav>
        </details>
      </div>
    </header>
  );
}
