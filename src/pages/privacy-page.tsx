import { LegalDocumentView } from '@/components/legal-document';
import { PRIVACY } from '@/content/legal/privacy';

/** /privacy: the privacy policy. */
export function PrivacyPage() {
  return <LegalDocumentView document={PRIVACY} />;
}
