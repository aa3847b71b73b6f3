import { env } from '#src/config/settings.ts';
import type { FormContract } from '#src/lib/forms/contract.ts';
import type { FormAnswerMarkers } from './form-answer.tsx';

/**
 * Whether this build's forms post to the site's own door (relay and queued modes, the default):
 * the enhanced form and the native post (a press before hydration, or without JavaScript) send
 * the same fields to the form's `path`. In direct mode there is no server to post to: the button
 * stays inert until hydration, with a note saying why (see SubmitButton).
 */
export const FORMS_POST_NATIVELY = env.storageMode === 'relay';

/** What each form takes for its native post and its answer template. */
export type NativePostProps = {
  /** Posts itself to its door before hydration and without JavaScript (default: FORMS_POST_NATIVELY). */
  postsNatively?: boolean;
  /** Only the answer page (src/server/doors/form-answer.ts's template, never hydrated) passes its markers. */
  answer?: FormAnswerMarkers;
};

/** The attributes that make a form post itself to its door, or none (direct mode). */
export function nativeFormAttributes(
  form: FormContract,
  postsNatively: boolean,
): { method?: 'post'; action?: string } {
  return postsNatively ? { method: 'post', action: form.path } : {};
}
