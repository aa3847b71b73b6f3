import { submitForm, type SubmitResult } from '#src/lib/airtable/submit-form.ts';
import type { StorageOptions } from '#src/lib/airtable/upsert.ts';

/** The home form's payload (spec 7.3); with no interest chosen the form sends ['General Waitlist']. */
export interface WaitlistSignUp {
  email: string;
  interests: string[];
}

/** Where home-page sign-ups come from, stored in the Waitlist's Page Source. */
export const HOME_PAGE_SOURCE = 'home';

/** Adds or updates the visitor on the waitlist; never throws — failures log and return success false. */
export function addToWaitlist(
  { email, interests }: WaitlistSignUp,
  options?: StorageOptions,
): Promise<SubmitResult> {
  return submitForm('Waitlist sign-up', (storage) =>
    storage.upsertWaitlistEntry({ email, interests, pageSource: HOME_PAGE_SOURCE }, options),
  );
}
