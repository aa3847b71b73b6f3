import { LegalDocumentView } from '@/components/legal-document';
import { TERMS } from '@/content/legal/terms';

/** /terms: the terms and conditions. */
export function TermsPage() {
  return <LegalDocumentView document={TERMS} />;
}
