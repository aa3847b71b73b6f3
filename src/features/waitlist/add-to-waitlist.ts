import { sendForm, type SubmitResult } from '#src/lib/forms/send-form.ts';
import { WAITLIST_FORM, type WaitlistPosted } from '#src/lib/forms/forms.ts';
import type { StorageOptions } from '#src/lib/airtable/upsert.ts';

/**
 * Adds or updates the visitor on the waitlist (spec 7.3: email and interests; an empty selection
 * sends none, and the server or direct mode's storage applies the default on a new record only).
 * Never throws: failures log and return success false.
 */
export function addToWaitlist(posted: WaitlistPosted, options?: StorageOptions): Promise<SubmitResult> {
  return sendForm(WAITLIST_FORM, posted, options);
}
