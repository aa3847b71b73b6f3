/** Longest wait for an idle moment once the page has loaded (a busy page still gets its turn). */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Runs `callback` once the page's load event has fired and the browser is then idle, so work
 * that is not needed for the first view never competes with painting, hydrating or loading it.
 * Returns a function that cancels the call if it has not run yet.
 */
export function whenIdleAfterLoad(callback: () => void): () => void {
  let cancelled = false;
  let cancelIdle = () => undefined as void;
  const schedule = () => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
      cancelIdle = () => window.cancelIdleCallback(handle);
    } else {
      const handle = window.setTimeout(callback, 0);
      cancelIdle = () => window.clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    cancelIdle();
  };
}
