import { submitForm, type SubmitResult } from '#src/lib/airtable/submit-form.ts';
import type { QuoteRequestInput, StorageOptions } from '#src/lib/airtable/upsert.ts';

/** Stores the school's quote request; never throws — failures log and return success false. */
export function submitQuoteRequest(
  input: QuoteRequestInput,
  options?: StorageOptions,
): Promise<SubmitResult> {
  return submitForm('Quote request', (storage) => storage.upsertQuoteRequest(input, options));
}
