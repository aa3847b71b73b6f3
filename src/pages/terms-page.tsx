import { LegalDocumentView } from '#src/components/legal-document.tsx';
import { TERMS } from '#src/content/legal/terms.ts';

/** /terms: the terms and conditions. */
export function TermsPage() {
  return <LegalDocumentView document={TERMS} />;
}
