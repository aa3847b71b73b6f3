import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { LogoMark } from '@/components/brand-icons';
import { NavItemLink, visibleNavItems } from '@/components/nav-item-link';
import { SocialLinks } from '@/components/social-links';
import { WaitlistLink } from '@/components/waitlist-link';
import { HEADER_SCROLL_THRESHOLD_PX } from '@/config/constants';
import { flags } from '@/config/flags';
import { HEADER_NAV, MOBILE_NAV, PRODUCT_NAME, ROUTE_PATHS } from '@/config/site';

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

export function Header({ schoolsPageOn = flags.SCHOOLS_PAGE }: { schoolsPageOn?: boolean }) {
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const panelId = useId();

  useEffect(() => {
    const update = () => setScrolled(isScrolledPastThreshold(window.scrollY));
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  // Any navigation closes the mobile panel.
  const [lastLocationKey, setLastLocationKey] = useState(location.key);
  if (lastLocationKey !== location.key) {
    setLastLocationKey(location.key);
    setMenuOpen(false);
  }

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  const desktopItems = visibleNavItems(HEADER_NAV, schoolsPageOn);
  const mobileItems = visibleNavItems(MOBILE_NAV, schoolsPageOn);

  return (
    <header className={`site-header${scrolled ? ' site-header--scrolled' : ''}`} data-scrolled={scrolled}>
      <div className="site-header__inner">
        <Link to={ROUTE_PATHS.home} className="site-header__brand" aria-label={HEADER_TEXT.homeLink}>
          <LogoMark />
          <span aria-hidden="true">{PRODUCT_NAME}</span>
        </Link>
        <nav className="site-header__nav" aria-label={HEADER_TEXT.mainNav}>
          <ul className="site-header__links">
            {desktopItems.map((item) => (
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
        <button
          ref={menuButton}
          type="button"
          className="site-header__menu-button"
          aria-expanded={menuOpen}
          aria-controls={panelId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="visually-hidden">{menuOpen ? HEADER_TEXT.closeMenu : HEADER_TEXT.openMenu}</span>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            {menuOpen ? (
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            ) : (
              <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            )}
          </svg>
        </button>
      </div>
      <div id={panelId} className="site-header__panel" hidden={!menuOpen}>
        {menuOpen && (
          <nav aria-label={HEADER_TEXT.mobileNav}>
            <ul className="site-header__panel-links">
              {mobileItems.map((item) => (
                <li key={item.label}>
                  <NavItemLink
                    item={item}
                    className="site-header__panel-link"
                    onNavigate={() => setMenuOpen(false)}
                  />
                </li>
              ))}
              <li>
                <WaitlistLink className="site-header__panel-link" onNavigate={() => setMenuOpen(false)}>
                  {HEADER_TEXT.waitlistCta}
                </WaitlistLink>
              </li>
            </ul>
            <SocialLinks />
          </nav>
        )}
      </div>
    </header>
  );
}
