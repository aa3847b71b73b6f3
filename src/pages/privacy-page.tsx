import { LegalDocumentView } from '#src/components/legal-document.tsx';
import { PRIVACY } from '#src/content/legal/privacy.ts';

/** /privacy: the privacy policy. */
export function PrivacyPage() {
  return <LegalDocumentView document={PRIVACY} />;
}
