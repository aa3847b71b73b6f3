import type { MouseEvent } from 'react';
import { flags } from '#src/config/flags.ts';
import { EXTERNAL_LINK_PROPS, LINKS } from '#src/config/site.ts';
import type { StoreClickLocation, StorePlatform } from '#src/lib/analytics.ts';
import { STORE_BUTTON_CLASSES, WAKES_APP_ATTRIBUTE } from '#src/lib/page-marks.ts';
import '#src/styles/home.css';

const STORE_BUTTON_TEXT = {
  appStore: { small: 'Download on the', large: 'App Store' },
  googlePlay: { small: 'Get it on', large: 'Google Play' },
  newTab: '(opens in a new tab)',
} as const;

export type StoreButtonsProps = {
  /** Show the App Store (UK listing) button; defaults to the APP_STORE_BUTTON flag. */
  appStoreButton?: boolean;
  /** Show the Google Play button; defaults to the GOOGLE_PLAY_BUTTON flag. */
  googlePlayButton?: boolean;
  /** Where the buttons sit, recorded with every click. */
  location?: StoreClickLocation;
  /**
   * Runs after the click is recorded; call `event.preventDefault()` to stay on the page
   * (the iOS-issue popup does this to explain the problem first). The buttons then need the app:
   * on a page that waits for its visitor, they load it as they near the viewport.
   */
  onAppStoreClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
  className?: string;
};

function AppStoreGlyph() {
  return (
    <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#ffffff" />
      <g stroke="#1b1530" strokeWidth="2.6" strokeLinecap="round" fill="none">
        <path d="M13.2 8.5 21.5 23" />
        <path d="M18.8 8.5 10.5 23" />
        <path d="M7.5 19.5h11" />
        <path d="M21 19.5h3.5" />
      </g>
    </svg>
  );
}

function GooglePlayGlyph() {
  return (
    <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
      <path d="M6 3.5v25l13-12.5z" fill="#00c2ff" />
      <path d="M6 3.5 19 16l4.5-4.3L8.4 3.2C7.5 2.7 6.6 2.9 6 3.5z" fill="#00e36b" />
      <path d="M6 28.5 19 16l4.5 4.3-15.1 8.5c-.9.5-1.8.3-2.4-.3z" fill="#ff3a44" />
      <path d="m23.5 11.7 4.2 2.4c1.5.9 1.5 3 0 3.8l-4.2 2.4L19 16z" fill="#ffd500" />
    </svg>
  );
}

type StoreLinkProps = {
  platform: StorePlatform;
  href: string;
  location: StoreClickLocation;
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
};

function StoreLink({ platform, href, location, onClick }: StoreLinkProps) {
  const text = platform === 'iOS' ? STORE_BUTTON_TEXT.appStore : STORE_BUTTON_TEXT.googlePlay;
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // The analytics module is fetched at the first click, not with the page (after consent it
    // is already loaded); the store opens in a new tab, so this page stays to send the event.
    void import('#src/lib/analytics.ts').then((analytics) => analytics.trackStoreClick(platform, location));
    onClick?.(event);
  };
  return (
    <a
      className={`store-button ${STORE_BUTTON_CLASSES[platform]}`}
      href={href}
      {...EXTERNAL_LINK_PROPS}
      onClick={handleClick}
    >
      {platform === 'iOS' ? <AppStoreGlyph /> : <GooglePlayGlyph />}
      <span className="store-button__text">
        <span className="store-button__small">{text.small}</span>{' '}
        <span className="store-button__large">{text.large}</span>
        <span className="visually-hidden"> {STORE_BUTTON_TEXT.newTab}</span>
      </span>
    </a>
  );
}

/** The App Store and Google Play buttons, each shown per its flag, opening in a new tab. */
export function StoreButtons({
  appStoreButton = flags.APP_STORE_BUTTON,
  googlePlayButton = flags.GOOGLE_PLAY_BUTTON,
  location = 'hero_section',
  onAppStoreClick,
  className,
}: StoreButtonsProps) {
  if (!appStoreButton && !googlePlayButton) return null;
  return (
    <ul
      className={['store-buttons', className].filter(Boolean).join(' ')}
      {...(onAppStoreClick ? { [WAKES_APP_ATTRIBUTE]: '' } : {})}
    >
      {appStoreButton ? (
        <li>
          <StoreLink platform="iOS" href={LINKS.appStore} location={location} onClick={onAppStoreClick} />
        </li>
      ) : null}
      {googlePlayButton ? (
        <li>
          <StoreLink platform="Android" href={LINKS.googlePlay} location={location} />
        </li>
      ) : null}
    </ul>
  );
}
