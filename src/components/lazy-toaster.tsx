import { useEffect, useState } from 'react';
import type { Toaster as ToasterComponent } from 'react-hot-toast';
import { TOAST_POSITION } from '@/config/constants';
import {
  loadToastLibrary,
  onFallbackToasts,
  onToasterReady,
  TOAST_DURATION_MS,
  type FallbackToast,
} from '@/lib/toast';

/** The toast area (top-center); mounts once react-hot-toast has loaded, idle time or first toast. */
export function LazyToaster() {
  const [Toaster, setToaster] = useState<typeof ToasterComponent | null>(null);
  const [fallback, setFallback] = useState<readonly FallbackToast[]>([]);
  useEffect(() => {
    const unsubscribeToaster = onToasterReady((component) => setToaster(() => component));
    const unsubscribeFallback = onFallbackToasts(setFallback);
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 2000));
    // Offline now? The first toast tries again and falls back to the plain area below.
    const handle = idle(() => void loadToastLibrary().catch(() => undefined));
    return () => {
      unsubscribeToaster();
      unsubscribeFallback();
      (window.cancelIdleCallback ?? window.clearTimeout)(handle);
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
