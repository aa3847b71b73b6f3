import { useEffect, useState } from 'react';
import type { Toaster as ToasterComponent } from 'react-hot-toast';
import { TOAST_POSITION } from '@/config/constants';
import { loadToastLibrary, onToasterReady } from '@/lib/toast';

const TOAST_DURATION_MS = 6000;

/** The toast area (top-center); mounts once react-hot-toast has loaded, idle time or first toast. */
export function LazyToaster() {
  const [Toaster, setToaster] = useState<typeof ToasterComponent | null>(null);
  useEffect(() => {
    const unsubscribe = onToasterReady((component) => setToaster(() => component));
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 2000));
    const handle = idle(() => void loadToastLibrary());
    return () => {
      unsubscribe();
      (window.cancelIdleCallback ?? window.clearTimeout)(handle);
    };
  }, []);
  return Toaster ? (
    <Toaster position={TOAST_POSITION} toastOptions={{ duration: TOAST_DURATION_MS }} />
  ) : null;
}
