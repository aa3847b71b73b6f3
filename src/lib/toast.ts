/**
 * Toasts without putting react-hot-toast in every page's first load: the library is fetched
 * the first time a toast is shown (or when the browser is idle), and the lazily mounted
 * Toaster in the layout renders whatever was queued.
 */
import type * as HotToast from 'react-hot-toast';
import type { Toaster as ToasterComponent } from 'react-hot-toast';

type ToastModule = typeof HotToast;

let loading: Promise<ToastModule> | null = null;
const listeners = new Set<(toaster: typeof ToasterComponent) => void>();

/** Fetches react-hot-toast once and tells the layout's Toaster slot. */
export function loadToastLibrary(): Promise<ToastModule> {
  loading ??= import('react-hot-toast').then((module) => {
    for (const listener of listeners) listener(module.Toaster);
    return module;
  });
  return loading;
}

/** Calls back with the Toaster component once the library has loaded; returns an unsubscribe. */
export function onToasterReady(listener: (toaster: typeof ToasterComponent) => void): () => void {
  listeners.add(listener);
  if (loading) void loading.then((module) => listener(module.Toaster));
  return () => listeners.delete(listener);
}

/** The toasts the site shows, with react-hot-toast's own signatures. */
export const toast = {
  success(message: string): void {
    void loadToastLibrary().then((module) => module.default.success(message));
  },
  error(message: string): void {
    void loadToastLibrary().then((module) => module.default.error(message));
  },
};
