import { Link } from 'react-router-dom';
import { LogoMark } from './brand-icons.tsx';
import { NavItemLink, visibleNavItems } from './nav-item-link.tsx';
import { SocialLinks } from './social-links.tsx';
import { flags } from '#src/config/flags.ts';
import {
  CONTACT_EMAIL,
  FOOTER_COLUMNS,
  LINKS,
  PRODUCT_NAME,
  ROUTE_PATHS,
  TAGLINE,
} from '#src/config/site.ts';
import { FOOTER_TEXT } from '#src/content/footer.ts';
import { COOKIE_SETTINGS_ATTRIBUTE, CURRENT_YEAR_ATTRIBUTE } from '#src/lib/page-marks.ts';

type Props = {
  onOpenCookieSettings: () => void;
  schoolsPageOn?: boolean;
  year?: number;
};

export function Footer({
  onOpenCookieSettings,
  schoolsPageOn = flags.SCHOOLS_PAGE,
  year = new Date().getFullYear(),
}: Props) {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <Link
            to={ROUTE_PATHS.home}
            discover="none"
            className="site-footer__logo"
            aria-label={`${PRODUCT_NAME} home`}
          >
            <LogoMark size={40} />
            <span aria-hidden="true">{PRODUCT_NAME}</span>
          </Link>
          <p className="site-footer__tagline">{TAGLINE}</p>
          <SocialLinks />
        </div>
        {FOOTER_COLUMNS.map((column) => (
          <nav key={column.title} className="site-footer__column" aria-label={column.title}>
            <h2 className="site-footer__heading">{column.title}</h2>
            <ul>
              {visibleNavItems(column.items, schoolsPageOn).map((item) => (
                <li key={item.label}>
                  <NavItemLink item={item} className="site-footer__link" />
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="site-footer__bottom">
        <p {...{ [CURRENT_YEAR_ATTRIBUTE]: '' }}>{FOOTER_TEXT.copyright(year)}</p>
        <p>
          {FOOTER_TEXT.contact} <a href={LINKS.contactMailto}>{CONTACT_EMAIL}</a>
        </p>
        <button
          type="button"
          className="link-button"
          {...{ [COOKIE_SETTINGS_ATTRIBUTE]: '' }}
          onClick={onOpenCookieSettings}
        >
          {FOOTER_TEXT.cookieSettings}
        </button>
      </div>
    </footer>
  );
}
