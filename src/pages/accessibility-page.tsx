import { LegalDocumentView } from '@/components/legal-document';
import { ACCESSIBILITY_STATEMENT } from '@/content/accessibility-statement';

/** /accessibility: how accessible the site is and how to report a problem. */
export function AccessibilityPage() {
  return <LegalDocumentView document={ACCESSIBILITY_STATEMENT} />;
}
