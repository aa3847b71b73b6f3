import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/** False in the prerendered HTML and during hydration; true once React owns the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
