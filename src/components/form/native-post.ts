import { env } from '#src/config/settings.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';

/**
 * Whether this build's forms post to the site's own door (relay and queued modes, the default):
 * the enhanced form and the native post (a press before hydration, or without JavaScript) send
 * the same fields to the form's `path`. In direct mode there is no server to post to: the button
 * stays inert until hydration, with a note saying why (see SubmitButton).
 */
export const FORMS_POST_NATIVELY = env.storageMode === 'relay';

/** The attributes that make a form post itself to its door, or none (direct mode). */
export function nativeFormAttributes(
  form: FormContract,
  postsNatively: boolean,
): { method?: 'post'; action?: string } {
  return postsNatively ? { method: 'post', action: form.path } : {};
}
