import { LegalDocumentView } from '#src/components/legal-document.tsx';
import { GUIDELINES } from '#src/content/legal/guidelines.ts';

/** /guidelines: the community and safety rules for children's podcasts. */
export function GuidelinesPage() {
  return <LegalDocumentView document={GUIDELINES} />;
}
