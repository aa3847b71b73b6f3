import { LegalDocumentView } from '#src/components/legal-document.tsx';
import { ACCESSIBILITY_STATEMENT } from '#src/content/accessibility-statement.ts';

/** /accessibility: how accessible the site is and how to report a problem. */
export function AccessibilityPage() {
  return <LegalDocumentView document={ACCESSIBILITY_STATEMENT} />;
}
