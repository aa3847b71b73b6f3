import { useLayoutEffect } from 'react';
import { useConsent, type ConsentChoice } from './consent-store.ts';

// Fetched only when there is a stored choice to act on: a first visit (no choice yet) and the
// page's first load never download the analytics module.
const loadAnalytics = () => import('#src/lib/analytics.ts');

/** Turns analytics on or off to follow the visitor's stored choice; returns the choice. */
export function useAnalyticsConsent(): ConsentChoice {
  const { choice } = useConsent();
  // Before the browser may dispatch a click (a layout effect, not a passive one, which a busy
  // phone runs later): a store button pressed at once finds analytics on, not an event lost.
  useLayoutEffect(() => {
    if (choice === 'granted') void loadAnalytics().then((analytics) => analytics.enableAnalytics());
    else if (choice === 'denied') void loadAnalytics().then((analytics) => analytics.disableAnalytics());
  }, [choice]);
  return choice;
}
