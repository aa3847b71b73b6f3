/**
 * The one module that imports react-ga4. Nothing is loaded from any analytics host until the
 * visitor has accepted analytics cookies (PECR, ICO Children's code); without a measurement id
 * every call is a no-op that warns once.
 */
import { env } from '#src/config/settings.ts';
import {
  ANALYTICS_TRANSPORTS,
  DEFAULT_ANALYTICS_TRANSPORT,
  type AnalyticsTransport,
} from '#src/config/constants.ts';
import { STORE_BUTTON_CLASSES, WAITS_FOR_VISITOR_ATTRIBUTE } from './page-marks.ts';

import type ReactGA from 'react-ga4';

type ReactGAModule = typeof ReactGA;

export type AnalyticsDimension = {
  platform?: string;
  location?: string;
  timestamp?: string;
  referrer?: string;
  userAgent?: string;
};

/** Spec section 3, Analytics event. */
export type AnalyticsEvent = {
  category: string;
  action: string;
  label?: string;
  value?: number;
  nonInteraction?: boolean;
  transport?: AnalyticsTransport;
  dimension?: AnalyticsDimension;
};

export type AnalyticsConfig = { measurementId: string; scriptUrl: string };

const WARN_PREFIX = '[analytics]';

let config: AnalyticsConfig = { measurementId: env.gaMeasurementId, scriptUrl: env.gaScriptUrl };
let loading: Promise<ReactGAModule | null> | null = null;
let ga: ReactGAModule | null = null;
let warnedMissingId = false;
let enabled = false;

/** Overrides the build-time configuration (tests only). */
export function configureAnalytics(next: AnalyticsConfig): void {
  config = next;
  loading = null;
  ga = null;
  warnedMissingId = false;
  enabled = false;
  countedEntry = null;
}

/** Loads and initialises react-ga4 after consent; resolves null when analytics is off. */
export function enableAnalytics(): Promise<ReactGAModule | null> {
  enabled = true;
  if (!config.measurementId) {
    if (!warnedMissingId)
      console.warn(`${WARN_PREFIX} No measurement id (VITE_GA_MEASUREMENT_ID): analytics is off.`);
    warnedMissingId = true;
    return Promise.resolve(null);
  }
  if (typeof window !== 'undefined')
    delete (window as unknown as Record<string, unknown>)[`ga-disable-${config.measurementId}`];
  if (!loading) {
    const { measurementId, scriptUrl } = config;
    loading = import('react-ga4').then((module) => {
      const reactGa = module.default;
      // send_page_view false: the router records every page view itself, including the first.
      reactGa.initialize(measurementId, {
        gtagUrl: scriptUrl,
        gtagOptions: {
          send_page_view: false,
          anonymize_ip: true,
          allow_google_signals: false,
          allow_ad_personalization_signals: false,
        },
      });
      ga = reactGa;
      return reactGa;
    });
  }
  return loading;
}

/** Stops sending after consent is withdrawn and removes the analytics cookies already set. */
export function disableAnalytics(): void {
  enabled = false;
  if (typeof window === 'undefined') return;
  if (config.measurementId)
    (window as unknown as Record<string, unknown>)[`ga-disable-${config.measurementId}`] = true;
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim() ?? '';
    if (name === '_ga' || name.startsWith('_ga_') || name === '_gid') {
      const domain = window.location.hostname;
      document.cookie = `${name}=; Max-Age=0; path=/`;
      document.cookie = `${name}=; Max-Age=0; path=/; domain=${domain}`;
      document.cookie = `${name}=; Max-Age=0; path=/; domain=.${domain.replace(/^www\./, '')}`;
    }
  }
}

/** Records a page view (path and title) once analytics is enabled; otherwise does nothing. */
export async function trackPageView(path: string, title: string): Promise<void> {
  if (!enabled) return;
  if (!path) {
    console.warn(`${WARN_PREFIX} trackPageView needs a path.`);
    return;
  }
  const reactGa = ga ?? (await enableAnalytics());
  if (!reactGa || !enabled) return;
  reactGa.send({ hitType: 'pageview', page: path, title });
}

let countedEntry: string | null = null;

/**
 * Counts the page view of one history entry once (its key: react-router's, 'default' for the entry a
 * full load opens), whoever asks first: the inline script of a page that waits for its visitor, or
 * the app when it takes over or navigates. Called only with consent.
 */
export async function countPageView(entryKey: string, path: string, title: string): Promise<void> {
  if (entryKey === countedEntry) return;
  countedEntry = entryKey;
  await enableAnalytics();
  await trackPageView(path, title);
}

/** Returns the problems with an event's arguments; empty when it can be sent. */
export function validateEvent(event: Partial<AnalyticsEvent> | null | undefined): string[] {
  const problems: string[] = [];
  if (!event || typeof event !== 'object') return ['an event object is required'];
  if (typeof event.category !== 'string' || event.category.trim() === '')
    problems.push('category is required');
  if (typeof event.action !== 'string' || event.action.trim() === '') problems.push('action is required');
  if (event.label !== undefined && typeof event.label !== 'string') problems.push('label must be a string');
  if (event.value !== undefined && (typeof event.value !== 'number' || !Number.isFinite(event.value)))
    problems.push('value must be a finite number');
  if (event.nonInteraction !== undefined && typeof event.nonInteraction !== 'boolean')
    problems.push('nonInteraction must be a boolean');
  if (event.transport !== undefined && !ANALYTICS_TRANSPORTS.includes(event.transport))
    problems.push(`transport must be one of ${ANALYTICS_TRANSPORTS.join(', ')}`);
  return problems;
}

/** Records an event in the spec's shape (transport defaults to beacon); bad arguments only warn. */
export async function trackEvent(event: AnalyticsEvent): Promise<void> {
  const problems = validateEvent(event);
  if (problems.length > 0) {
    console.warn(`${WARN_PREFIX} trackEvent ignored: ${problems.join('; ')}.`);
    return;
  }
  if (!enabled) return;
  const reactGa = ga ?? (await enableAnalytics());
  if (!reactGa || !enabled) return;
  reactGa.event(event.action, {
    event_category: event.category,
    event_label: event.label,
    value: event.value,
    non_interaction: event.nonInteraction ?? false,
    transport_type: event.transport ?? DEFAULT_ANALYTICS_TRANSPORT,
    ...event.dimension,
  });
}

export type StorePlatform = 'iOS' | 'Android';
export type StoreClickLocation = 'hero_section' | 'popup';

/** The store-button click event (spec 7.4): platform and location, sent by beacon. */
export function trackStoreClick(platform: StorePlatform, location: StoreClickLocation): Promise<void> {
  return trackEvent({
    category: 'App Download',
    action: 'store_click',
    label: `${platform} - ${location}`,
    nonInteraction: false,
    transport: 'beacon',
    dimension: {
      platform,
      location,
      timestamp: new Date().toISOString(),
      referrer: typeof document === 'undefined' ? '' : document.referrer,
      userAgent: typeof navigator === 'undefined' ? '' : navigator.userAgent,
    },
  });
}

/**
 * A store button clicked before the app has taken over a page that waits for its visitor
 * (decision 20) has no handler of its own yet: its event is sent from here, where the page's
 * inline script loaded this module with consent. Only the hero's buttons are there without the
 * app (the popup's need it).
 */
function countStoreClickBeforeTheApp({ target }: MouseEvent): void {
  if (!document.documentElement.hasAttribute(WAITS_FOR_VISITOR_ATTRIBUTE) || !(target instanceof Element))
    return;
  for (const platform of ['iOS', 'Android'] as const)
    if (target.closest(`.${STORE_BUTTON_CLASSES[platform]}`)) void trackStoreClick(platform, 'hero_section');
}

if (typeof document !== 'undefined') document.addEventListener('click', countStoreClickBeforeTheApp, true);
