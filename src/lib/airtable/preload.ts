/**
 * Fetches the storage layer and airtable.js ahead of a submit. The forms call it when they
 * first get focus, so neither is in the page's first download and a submit does not wait for them.
 */
export function preloadStorage(): void {
  void Promise.all([import('./upsert.ts'), import('./client.ts').then((m) => m.loadAirtable())]).catch(
    () => undefined,
  );
}
