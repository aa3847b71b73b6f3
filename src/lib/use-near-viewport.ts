import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * True once the referenced element comes within `rootMargin` of the viewport; stays true.
 * Starts false on the server and in the first client render, so hydration always matches.
 */
export function useNearViewport<T extends Element>(rootMargin: string): [RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element || near) return undefined;
    if (typeof IntersectionObserver === 'undefined') {
      // Without the observer (very old browsers) load at once rather than never.
      const timer = window.setTimeout(() => setNear(true), 0);
      return () => window.clearTimeout(timer);
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          setNear(true);
        }
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, rootMargin]);

  return [ref, near];
}
