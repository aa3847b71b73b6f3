import { Fragment, type ReactNode } from 'react';
import { CONTACT_EMAIL } from '#src/config/site.ts';
import type { LegalDocument } from '#src/content/types.ts';
import '#src/styles/content.css';

/** '2 June 2025': a fixed locale and time zone, so the server and the browser agree. */
const LEGAL_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** Formats an ISO date (YYYY-MM-DD) as '2 June 2025'; anything else is shown as it is. */
export function formatLegalDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(isoDate) && !Number.isNaN(date.getTime())
    ? LEGAL_DATE.format(date)
    : isoDate;
}

/** A stable in-page anchor for a section heading, e.g. 'Who we are' → 'who-we-are'. */
export function legalSectionId(heading: string): string {
  return heading
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Turns each mention of the contact address into a mailto link. */
function withContactLinks(text: string): ReactNode {
  const parts = text.split(CONTACT_EMAIL);
  if (parts.length === 1) return text;
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a> : null}
      {part}
    </Fragment>
  ));
}

/** Renders one legal document: its title, date, contents and sections. */
export function LegalDocumentView({ document }: { document: LegalDocument }) {
  const sections = document.sections.map((section) => ({ ...section, id: legalSectionId(section.heading) }));
  return (
    <article className="legal-document" aria-labelledby="legal-title">
      <header className="legal-header">
        <h1 id="legal-title" className="legal-title">
          {document.title}
        </h1>
        <p className="legal-updated">
          Last updated: <time dateTime={document.lastUpdated}>{formatLegalDate(document.lastUpdated)}</time>
        </p>
        <p className="legal-intro">{withContactLinks(document.intro)}</p>
      </header>

      <nav className="legal-toc" aria-labelledby="legal-toc-title">
        <h2 id="legal-toc-title" className="legal-toc-title">
          On this page
        </h2>
        <ol className="legal-toc-list">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.heading}</a>
            </li>
          ))}
        </ol>
      </nav>

      {sections.map((section) => (
        <section key={section.id} className="legal-section" aria-labelledby={section.id}>
          <h2 id={section.id} className="legal-section-title" tabIndex={-1}>
            {section.heading}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{withContactLinks(paragraph)}</p>
          ))}
          {section.list ? (
            <ul className="legal-list">
              {section.list.map((item) => (
                <li key={item}>{withContactLinks(item)}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </article>
  );
}
