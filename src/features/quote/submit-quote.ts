import type { QuoteRequestInput, StorageOptions } from '@/lib/airtable/upsert';

/** The outcome the quote form needs: on failure, the storage layer's message (for logs, not the toast). */
export type QuoteSubmitResult = { success: true } | { success: false; error: string };

/** Stores the school's quote request; never throws — failures log and return success false. */
export async function submitQuoteRequest(
  input: QuoteRequestInput,
  options?: StorageOptions,
): Promise<QuoteSubmitResult> {
  try {
    // Loaded on first use: the storage layer is not part of the page's first download.
    const { upsertQuoteRequest } = await import('@/lib/airtable/upsert');
    await upsertQuoteRequest(input, options);
    return { success: true };
  } catch (error) {
    console.error('Quote request failed:', error);
    return { success: false, error: error instanceof Error ? error.message : String(error) };
  }
}
