import { submitForm, type SubmitResult } from '@/lib/airtable/submit-form';
import type { QuoteRequestInput, StorageOptions } from '@/lib/airtable/upsert';

/** Stores the school's quote request; never throws — failures log and return success false. */
export function submitQuoteRequest(
  input: QuoteRequestInput,
  options?: StorageOptions,
): Promise<SubmitResult> {
  return submitForm('Quote request', (storage) => storage.upsertQuoteRequest(input, options));
}
