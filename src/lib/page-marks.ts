/**
 * Marks in the prerendered markup that both the app and the inline script of a page that waits
 * for its visitor (scripts/vite-plugins/boot-loader.ts) work with: the script keeps the header,
 * the footer's year and the cookie banner working before the app loads, and gives way once the
 * app has taken over (`HYDRATED_ATTRIBUTE`).
 */

/** Where the visitor's analytics choice is kept (localStorage): 'granted' or 'denied'. */
export const CONSENT_STORAGE_KEY = 'podling.analytics-consent.v1';

/** Marks <html> while the cookie banner may show; global.css hides the banner without it. */
export const CONSENT_OPEN_ATTRIBUTE = 'data-consent-open';

/** On the banner's buttons: the choice each one stores ('granted' or 'denied'). */
export const CONSENT_CHOICE_ATTRIBUTE = 'data-consent';

/** On the footer's 'Cookie settings' control, which shows the banner again. */
export const COOKIE_SETTINGS_ATTRIBUTE = 'data-cookies';

/** On the footer's copyright line: its four-digit year is the current one. */
export const CURRENT_YEAR_ATTRIBUTE = 'data-year';

/** The header past its scroll threshold: the attribute says 'true', the class makes it translucent. */
export const HEADER_SCROLLED = { attribute: 'data-scrolled', className: 'site-header--scrolled' } as const;

/** Set to 'true' on <html> once the app owns the page (tests wait for it before interacting). */
export const HYDRATED_ATTRIBUTE = 'data-hydrated';

/** On <html> while a page waits for its visitor's first act before it loads the app. */
export const WAITS_FOR_VISITOR_ATTRIBUTE = 'data-waits-for-visitor';

/**
 * The store buttons' classes by platform: on a page that waits for its visitor, the analytics
 * module (loaded with consent) counts a click on one before the app has taken over.
 */
export const STORE_BUTTON_CLASSES = {
  iOS: 'store-button--app-store',
  Android: 'store-button--google-play',
} as const;

/** On a part that needs the app (a form, the carousel): nearing the viewport, it loads the app. */
export const WAKES_APP_ATTRIBUTE = 'data-wakes-app';
