import { env } from '#src/config/settings.ts';
import { setLookAlikeRule } from '#src/lib/email.ts';

/**
 * Fetches what a submit needs ahead of it: the email rule's look-alike table, and in direct mode
 * the storage layer and airtable.js (relay and queued modes post to the site's door and need
 * neither). The forms call it when they first get focus, so none is in the page's first download
 * and a submit (or the email field's first check, on blur) does not wait for them.
 */
export function preloadStorage(): void {
  void Promise.all([
    import('#src/lib/email-look-alikes.ts').then((rule) => setLookAlikeRule(rule.passesForAnother)),
    ...(env.storageMode === 'direct'
      ? [import('./upsert.ts'), import('./client.ts').then((m) => m.loadAirtable())]
      : []),
  ]).catch(() => undefined);
}
