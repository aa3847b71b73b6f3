import { env } from '#src/config/env.ts';
import { FORM_POST_PATHS, type NativeFormName } from '#src/lib/airtable/relay-protocol.ts';

/**
 * Whether this build's forms can post natively: in relay mode (the default) the site's own origin
 * answers a plain form post (the server's native door, FORM_POST_PATHS), so a press before
 * hydration or without JavaScript still sends the form. In direct mode there is no server to post
 * to: the button stays inert until hydration, with a note saying why (see SubmitButton).
 */
export const FORMS_POST_NATIVELY = env.storageMode === 'relay';

/** The attributes that make a form post itself to the site's native door, or none (direct mode). */
export function nativeFormAttributes(
  form: NativeFormName,
  postsNatively: boolean,
): { method?: 'post'; action?: string } {
  return postsNatively ? { method: 'post', action: FORM_POST_PATHS[form] } : {};
}
