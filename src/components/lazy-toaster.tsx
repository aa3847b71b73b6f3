import { useEffect, useState } from 'react';
import type { Toaster as ToasterComponent } from 'react-hot-toast';
import { TOAST_POSITION } from '#src/config/constants.ts';
import {
  loadToastLibrary,
  onFallbackToasts,
  onToasterReady,
  TOAST_DURATION_MS,
  type FallbackToast,
} from '#src/lib/toast.ts';
import { whenIdleAfterLoad } from '#src/lib/when-idle-after-load.ts';
import '#src/styles/toast-fallback.css';

/** The toast area (top-center); mounts once react-hot-toast has loaded (idle after load, or the first toast). */
export function LazyToaster() {
  const [Toaster, setToaster] = useState<typeof ToasterComponent | null>(null);
  const [fallback, setFallback] = useState<readonly FallbackToast[]>([]);
  useEffect(() => {
    const unsubscribeToaster = onToasterReady((component) => setToaster(() => component));
    const unsubscribeFallback = onFallbackToasts(setFallback);
    // After load, once idle: never competes with the page's own paint and hydration.
    // Offline now? The first toast tries again and falls back to the plain area below.
    const cancel = whenIdleAfterLoad(() => void loadToastLibrary().catch(() => undefined));
    return () => {
      unsubscribeToaster();
      unsubscribeFallback();
      cancel();
    };
  }, []);
  return (
    <>
      {Toaster ? <Toaster position={TOAST_POSITION} toastOptions={{ duration: TOAST_DURATION_MS }} /> : null}
      {fallback.length > 0 ? (
        <div className="toast-fallback" role="status" aria-live="polite">
          {fallback.map((item) => (
            <p key={item.id} className={`toast-fallback__item toast-fallback__item--${item.kind}`}>
              {item.message}
            </p>
          ))}
        </div>
      ) : null}
    </>
  );
}
