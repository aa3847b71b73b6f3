import type { StorageOptions } from '@/lib/airtable/upsert';

/** The home form's payload (spec 7.3); with no interest chosen the form sends ['General Waitlist']. */
export interface WaitlistSignUp {
  email: string;
  interests: string[];
}

/** Where home-page sign-ups come from, stored in the Waitlist's Page Source. */
export const HOME_PAGE_SOURCE = 'home';

/** Adds or updates the visitor on the waitlist; never throws — failures log and return success false. */
export async function addToWaitlist(
  { email, interests }: WaitlistSignUp,
  options?: StorageOptions,
): Promise<{ success: boolean }> {
  try {
    // Loaded on first use: the storage layer is not part of the page's first download.
    const { upsertWaitlistEntry } = await import('@/lib/airtable/upsert');
    await upsertWaitlistEntry({ email, interests, pageSource: HOME_PAGE_SOURCE }, options);
    return { success: true };
  } catch (error) {
    console.error('Waitlist sign-up failed:', error);
    return { success: false };
  }
}
