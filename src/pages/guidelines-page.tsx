import { LegalDocumentView } from '@/components/legal-document';
import { GUIDELINES } from '@/content/legal/guidelines';

/** /guidelines: the community and safety rules for children's podcasts. */
export function GuidelinesPage() {
  return <LegalDocumentView document={GUIDELINES} />;
}
