import { sendForm, type SubmitResult } from '#src/lib/forms/send-form.ts';
import { QUOTE_FORM, type QuotePosted } from '#src/lib/forms/forms.ts';
import type { StorageOptions } from '#src/lib/airtable/upsert.ts';

/** Stores the school's quote request; never throws: failures log and return success false. */
export function submitQuoteRequest(posted: QuotePosted, options?: StorageOptions): Promise<SubmitResult> {
  return sendForm(QUOTE_FORM, posted, options);
}
