import { loadLookAlikeRule } from '#src/lib/email.ts';

/**
 * Fetches the storage layer, airtable.js and the email rule's look-alike table ahead of a submit.
 * The forms call it when they first get focus, so none is in the page's first download and a
 * submit (or the email field's first check, on blur) does not wait for them.
 */
export function preloadStorage(): void {
  void Promise.all([
    import('./upsert.ts'),
    import('./client.ts').then((m) => m.loadAirtable()),
    loadLookAlikeRule(),
  ]).catch(() => undefined);
}
