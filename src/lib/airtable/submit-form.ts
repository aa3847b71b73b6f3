import type * as Storage from './upsert.ts';

/** What a form's submit helper answers; it never throws (the form shows its own failure toast). */
export type SubmitResult = { success: boolean };

/**
 * Runs one storage call for a form, with the storage layer loaded on first use (it is not part of
 * the page's first download). A failure is logged under `what` and answered as success false.
 */
export async function submitForm(
  what: string,
  store: (storage: typeof Storage) => Promise<unknown>,
): Promise<SubmitResult> {
  try {
    await store(await import('./upsert.ts'));
    return { success: true };
  } catch (error) {
    console.error(`${what} failed:`, error);
    return { success: false };
  }
}
