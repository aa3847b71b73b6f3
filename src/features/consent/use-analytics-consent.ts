import { useLayoutEffect } from 'react';
import { currentConsent, useConsent, type ConsentChoice } from './consent-store.ts';

// Fetched only when there is a stored choice to act on: a first visit (no choice yet) and the
// page's first load never download the analytics module.
const loadAnalytics = () => import('#src/lib/analytics.ts');

/** Turns analytics on or off to follow the visitor's stored choice; returns the choice. */
export function useAnalyticsConsent(): ConsentChoice {
  const { choice } = useConsent();
  // Before the browser may dispatch a click (a layout effect, not a passive one, which a busy
  // phone runs later): a store button pressed at once finds analytics on, not an event lost.
  useLayoutEffect(() => {
    if (choice === 'unset') return;
    // The choice when the module arrives, not when it was asked for: loads can finish out of
    // order, and a quick change of mind must win.
    void loadAnalytics().then((analytics) => {
      if (currentConsent() === 'granted') void analytics.enableAnalytics();
      else analytics.disableAnalytics();
    });
  }, [choice]);
  return choice;
}
