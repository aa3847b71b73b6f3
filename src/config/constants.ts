// Its own module so site.ts and the spec's messages can name the product without importing site.ts
// back. Node-side tools load this file too: no imports.

/** The product's name (elided in the spec); every visible mention reads this constant. */
export const PRODUCT_NAME = 'Podling';
export const COMPANY_NAME = 'Podling Ltd';
export const TAGLINE = 'Podcasts made by kids, with their own voice';
export const CONTACT_EMAIL = 'hello@podling.app';

/** Business constants and limits from spec section 9, named once. */
export const HEADER_SCROLL_THRESHOLD_PX = 10;
export const HASH_SCROLL_DELAY_MS = 100;
export const WAITLIST_ANCHOR_ID = 'waitlist';

export const EMAIL_MIN_LENGTH = 5;
export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_LOCAL_MAX_LENGTH = 64;
export const EMAIL_DOMAIN_MAX_LENGTH = 255;

export const DEFAULT_INTEREST_HOME_FORM = 'General Waitlist';
export const DEFAULT_INTEREST_STORED = 'General Interest';

export const TOAST_POSITION = 'top-center' as const;

export const ANALYTICS_TRANSPORTS = ['beacon', 'xhr', 'image'] as const;
export type AnalyticsTransport = (typeof ANALYTICS_TRANSPORTS)[number];
export const DEFAULT_ANALYTICS_TRANSPORT: AnalyticsTransport = 'beacon';

export const SCHEDULING_CALL_MINUTES = 30;
export const CALENDAR_FRAME_HEIGHT_PX = 1050;

/** Testimonial carousel (react-slick) settings. */
export const CAROUSEL = {
  slidesToShow: 5,
  slidesToScroll: 1,
  autoplaySpeedMs: 5000,
  transitionSpeedMs: 2000,
  dots: false,
  infinite: true,
  pauseOnHover: true,
  /** Breakpoint (max width, px) → slides shown at or below it. */
  breakpoints: [
    { maxWidth: 1920, slidesToShow: 4 },
    { maxWidth: 1536, slidesToShow: 3 },
    { maxWidth: 1024, slidesToShow: 2 },
    { maxWidth: 640, slidesToShow: 1 },
  ],
} as const;

/** Longest a visitor waits for a form's answer, retries of 429 included. */
export const STORAGE_ANSWER_BOUND_MS = 30_000;

export const DATA_RETENTION_MONTHS = 24;
/** Unconfirmed ('Pending') sign-ups go after this many idle days; the rest keep DATA_RETENTION_MONTHS. */
export const PENDING_RETENTION_DAYS = 30;
export const ADULT_MIN_AGE = 18;
export const PARENTAL_CONSENT_UNDER_AGE = 13;

/** The real Airtable API; tests and local servers point elsewhere. */
export const AIRTABLE_DEFAULT_ENDPOINT = 'https://api.airtable.com';

/**
 * The security headers every answer carries, whatever its status: the static host's `_headers`
 * (scripts/vite-plugins/security-headers.ts) and the Worker's own answers (worker.ts).
 */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // Powerful features the site never uses, switched off for it and anything it embeds.
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
} as const;
