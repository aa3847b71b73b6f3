import { useEffect } from 'react';
import { disableAnalytics, enableAnalytics } from '@/lib/analytics';
import { useConsent, type ConsentChoice } from '@/features/consent/consent-store';

/** Turns analytics on or off to follow the visitor's stored choice; returns the choice. */
export function useAnalyticsConsent(): ConsentChoice {
  const { choice } = useConsent();
  useEffect(() => {
    if (choice === 'granted') void enableAnalytics();
    else if (choice === 'denied') disableAnalytics();
  }, [choice]);
  return choice;
}
