/**
 * Toasts without putting react-hot-toast in every page's first load: the library is fetched
 * the first time a toast is shown (or when the browser is idle), and the lazily mounted
 * Toaster in the layout renders whatever was queued. If the library cannot be fetched (the
 * visitor went offline before it loaded), the message is still shown by a plain fallback.
 */
import type * as HotToast from 'react-hot-toast';
import type { Toaster as ToasterComponent } from 'react-hot-toast';

type ToastModule = typeof HotToast;
type ToastKind = 'success' | 'error';
export type FallbackToast = { readonly id: number; readonly kind: ToastKind; readonly message: string };

/** How long a toast stays on screen (both the library's and the fallback's). */
export const TOAST_DURATION_MS = 6000;

let loader: () => Promise<ToastModule> = () => import('react-hot-toast');
let loading: Promise<ToastModule> | null = null;
const toasterListeners = new Set<(toaster: typeof ToasterComponent) => void>();
const fallbackListeners = new Set<(toasts: readonly FallbackToast[]) => void>();
let fallbackToasts: readonly FallbackToast[] = [];
let nextFallbackId = 1;

/** Fetches react-hot-toast once and tells the layout's Toaster slot; a failed fetch can be retried. */
export function loadToastLibrary(): Promise<ToastModule> {
  loading ??= loader().then(
    (module) => {
      for (const listener of toasterListeners) listener(module.Toaster);
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Calls back with the Toaster component once the library has loaded; returns an unsubscribe. */
export function onToasterReady(listener: (toaster: typeof ToasterComponent) => void): () => void {
  toasterListeners.add(listener);
  if (loading) loading.then((module) => listener(module.Toaster)).catch(() => undefined);
  return () => toasterListeners.delete(listener);
}

/** Calls back with the fallback toasts whenever they change; returns an unsubscribe. */
export function onFallbackToasts(listener: (toasts: readonly FallbackToast[]) => void): () => void {
  fallbackListeners.add(listener);
  listener(fallbackToasts);
  return () => fallbackListeners.delete(listener);
}

function setFallbackToasts(next: readonly FallbackToast[]): void {
  fallbackToasts = next;
  for (const listener of fallbackListeners) listener(fallbackToasts);
}

function showFallback(kind: ToastKind, message: string): void {
  const toast = { id: nextFallbackId++, kind, message };
  setFallbackToasts([...fallbackToasts, toast]);
  setTimeout(
    () => setFallbackToasts(fallbackToasts.filter((item) => item.id !== toast.id)),
    TOAST_DURATION_MS,
  );
}

function show(kind: ToastKind, message: string): void {
  loadToastLibrary().then(
    (module) => void module.default[kind](message),
    () => showFallback(kind, message),
  );
}

/** The toasts the site shows, with react-hot-toast's own signatures. */
export const toast = {
  success: (message: string): void => show('success', message),
  error: (message: string): void => show('error', message),
};

/** Replaces how the library is fetched (tests only). */
export function setToastLoaderForTests(next: () => Promise<ToastModule>): void {
  loader = next;
  loading = null;
  setFallbackToasts([]);
}
