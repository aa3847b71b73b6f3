import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { LogoMark } from './brand-icons.tsx';
import { NavItemLink, visibleNavItems } from './nav-item-link.tsx';
import { SocialLinks } from './social-links.tsx';
import { WaitlistLink } from './waitlist-link.tsx';
import { HEADER_SCROLL_THRESHOLD_PX } from '#src/config/constants.ts';
import { flags } from '#src/config/flags.ts';
import { HEADER_NAV, MOBILE_NAV, PRODUCT_NAME, ROUTE_PATHS } from '#src/config/site.ts';
import { useHydrated } from '#src/lib/use-hydrated.ts';

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
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      {open ? (
        <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      ) : (
        <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      )}
    </svg>
  );
}

/**
 * The phone menu before hydration and without JavaScript: a native disclosure (<details>), so
 * the menu opens with no script at all; its label and icon follow the open state in CSS. Once
 * hydrated, the header swaps it for the enhanced button (aria-expanded, Escape, closes on
 * navigation), carrying over whether it was open and where focus was.
 */
function NativeMenu({
  detailsRef,
  summaryRef,
  children,
}: {
  detailsRef: RefObject<HTMLDetailsElement | null>;
  summaryRef: RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  return (
    // The visitor may open it before hydration: its `open` attribute is theirs, not a mismatch.
    <details ref={detailsRef} className="site-header__menu" suppressHydrationWarning>
      <summary ref={summaryRef} className="site-header__menu-button">
        <span className="visually-hidden site-header__menu-label--closed">{HEADER_TEXT.openMenu}</span>
        <span className="visually-hidden site-header__menu-label--open">{HEADER_TEXT.closeMenu}</span>
        <span className="site-header__menu-icon--closed">
          <MenuIcon open={false} />
        </span>
        <span className="site-header__menu-icon--open">
          <MenuIcon open />
        </span>
      </summary>
      <div className="site-header__panel site-header__panel--native">{children}</div>
    </details>
  );
}

export function Header({ schoolsPageOn = flags.SCHOOLS_PAGE }: { schoolsPageOn?: boolean }) {
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const panelId = useId();
  const hydrated = useHydrated();
  const nativeMenu = useRef<HTMLDetailsElement>(null);
  const nativeSummary = useRef<HTMLElement>(null);
  const summaryHadFocus = useRef(false);

  // At hydration the native menu is still in the page: keep its state for the enhanced one.
  useLayoutEffect(() => {
    if (nativeMenu.current?.open) setMenuOpen(true);
    summaryHadFocus.current =
      document.activeElement === nativeSummary.current && nativeSummary.current !== null;
  }, []);
  useLayoutEffect(() => {
    if (hydrated && summaryHadFocus.current) {
      summaryHadFocus.current = false;
      menuButton.current?.focus();
    }
  }, [hydrated]);

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
  const mobileNav = (onNavigate: () => void) => (
    <nav aria-label={HEADER_TEXT.mobileNav}>
      <ul className="site-header__panel-links">
        {mobileItems.map((item) => (
          <li key={item.label}>
            <NavItemLink item={item} className="site-header__panel-link" onNavigate={onNavigate} />
          </li>
        ))}
        <li>
          <WaitlistLink className="site-header__panel-link" onNavigate={onNavigate}>
            {HEADER_TEXT.waitlistCta}
          </WaitlistLink>
        </li>
      </ul>
      <SocialLinks />
    </nav>
  );

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
        {hydrated ? (
          <button
            ref={menuButton}
            type="button"
            className="site-header__menu-button"
            aria-expanded={menuOpen}
            aria-controls={panelId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className="visually-hidden">{menuOpen ? HEADER_TEXT.closeMenu : HEADER_TEXT.openMenu}</span>
            <MenuIcon open={menuOpen} />
          </button>
        ) : (
          <NativeMenu detailsRef={nativeMenu} summaryRef={nativeSummary}>
            {mobileNav(() => undefined)}
          </NativeMenu>
        )}
      </div>
      {hydrated ? (
        <div id={panelId} className="site-header__panel" hidden={!menuOpen}>
          {menuOpen && mobileNav(() => setMenuOpen(false))}
        </div>
      ) : null}
    </header>
  );
}
