import { useEffect, type RefObject } from 'react';

/** Calls `callback` the first time focus enters the element (e.g. to fetch code a submit needs). */
export function useFirstFocusWithin(ref: RefObject<HTMLElement | null>, callback: () => void): void {
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    element.addEventListener('focusin', callback, { once: true });
    return () => element.removeEventListener('focusin', callback);
  }, [ref, callback]);
}
