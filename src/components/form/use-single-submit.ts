import { useCallback, useRef } from 'react';

/**
 * Guards a submit handler so a double click or Enter pressed twice sends once: a ref flips
 * synchronously, before React re-renders the button as disabled.
 */
export function useSingleSubmit() {
  const inFlight = useRef(false);

  /** Runs the task unless one is already running; resolves undefined when it was skipped. */
  const run = useCallback(async <T>(task: () => Promise<T>): Promise<T | undefined> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    try {
      return await task();
    } finally {
      inFlight.current = false;
    }
  }, []);

  return { run };
}
