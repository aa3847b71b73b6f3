import { useSyncExternalStore } from 'react';
import { CONSENT_OPEN_ATTRIBUTE, CONSENT_STORAGE_KEY } from '#src/lib/page-marks.ts';

/** 'unset' until the visitor chooses; the choice is kept in localStorage on this device. */
export type ConsentChoice = 'granted' | 'denied' | 'unset';

const listeners = new Set<() => void>();
// The banner shown again from 'Cookie settings' before the app loaded (a text page's inline script
// marks <html>: src/lib/page-marks.ts) stays open when the app takes over. Read as this module
// loads, before hydration renders the banner (which marks <html> too).
let reopenRequested =
  typeof document !== 'undefined' &&
  read() !== 'unset' &&
  document.documentElement.hasAttribute(CONSENT_OPEN_ATTRIBUTE);
let memoryChoice: ConsentChoice | null = null;

function read(): ConsentChoice {
  try {
    const value = window.localStorage.getItem(CONSENT_STORAGE_KEY);
    return value === 'granted' || value === 'denied' ? value : 'unset';
  } catch {
    // Storage blocked (private mode, policies): ask again each visit rather than assume.
    return 'unset';
  }
}

function emit(): void {
  for (const listener of listeners) listener();
}

/** Stores the visitor's analytics choice and tells every subscriber. */
export function setConsent(choice: Exclude<ConsentChoice, 'unset'>): void {
  try {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, choice);
  } catch {
    // Nothing to do: the choice still applies for this page view.
  }
  memoryChoice = choice;
  reopenRequested = false;
  emit();
}

/** Shows the banner again so the visitor can change their choice (footer 'Cookie settings'). */
export function reopenConsent(): void {
  reopenRequested = true;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === CONSENT_STORAGE_KEY) {
      memoryChoice = null;
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

type ConsentState = { choice: ConsentChoice; bannerOpen: boolean; hydrated: boolean };
// The prerendered page carries the banner, so it paints with the page instead of arriving
// late after hydration (as the largest paint on a phone); CONSENT_OPEN_SCRIPT decides, before
// the first paint, whether it shows.
const SERVER_STATE: ConsentState = { choice: 'unset', bannerOpen: true, hydrated: false };
let lastState: ConsentState = SERVER_STATE;

/** The visitor's choice now (outside React: a callback that runs later than it was asked for). */
export function currentConsent(): ConsentChoice {
  return memoryChoice ?? read();
}

function snapshot(): ConsentState {
  const choice = currentConsent();
  const bannerOpen = choice === 'unset' || reopenRequested;
  if (lastState.choice !== choice || lastState.bannerOpen !== bannerOpen || !lastState.hydrated) {
    lastState = { choice, bannerOpen, hydrated: true };
  }
  return lastState;
}

/**
 * Inline in every prerendered page's head: shows the banner only when no choice is stored (storage
 * blocked counts as none). Without JavaScript it stays hidden: its buttons could not work.
 */
export const CONSENT_OPEN_SCRIPT = `(function(h){try{if(localStorage.getItem(${JSON.stringify(CONSENT_STORAGE_KEY)}))return}catch(e){}h.setAttribute(${JSON.stringify(CONSENT_OPEN_ATTRIBUTE)},"")})(document.documentElement)`;

/** The current choice and whether the banner shows; the prerendered page renders it open. */
export function useConsent(): ConsentState {
  return useSyncExternalStore(subscribe, snapshot, () => SERVER_STATE);
}

/** Forgets the in-memory state (tests only). */
export function resetConsentForTests(): void {
  memoryChoice = null;
  reopenRequested = false;
  lastState = SERVER_STATE;
  document.documentElement.removeAttribute(CONSENT_OPEN_ATTRIBUTE);
  try {
    window.localStorage.removeItem(CONSENT_STORAGE_KEY);
  } catch {
    // Storage blocked: nothing stored to forget.
  }
}
