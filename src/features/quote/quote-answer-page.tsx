import {
  AnswerRegion,
  FORM_ANSWER_MARKERS,
  FormAnswerConfirmation,
  FormAnswerSummaries,
} from '#src/components/form/form-answer.tsx';
import { MESSAGES } from '#src/config/messages.ts';
import { SCHOOLS } from '#src/content/schools.ts';
import { QUOTE_FIELD_IDS, QuoteForm } from './quote-form.tsx';
import '#src/styles/schools.css';

const QUOTE_ANSWER_HEADING_ID = 'quote-answer-heading';

/**
 * The page the server answers a native quote request with (src/server/doors/form-answer.ts): the spec's
 * thank-you, or an error summary and the form again with everything kept, posting natively.
 */
export function QuoteAnswerPage({ backHref }: { backHref: string }) {
  return (
    <section
      className="section schools-section schools-quote form-answer"
      aria-labelledby={QUOTE_ANSWER_HEADING_ID}
    >
      <div className="schools-quote__panel">
        <FormAnswerSummaries emailFieldId={QUOTE_FIELD_IDS.email} />
        <header className="schools-section__header">
          <h1 id={QUOTE_ANSWER_HEADING_ID} className="schools-section__title">
            {SCHOOLS.quote.heading}
          </h1>
        </header>
        <AnswerRegion region="confirmed">
          <FormAnswerConfirmation
            title={MESSAGES.quoteThankYouTitle}
            body={MESSAGES.quoteThankYouBody}
            backHref={backHref}
            backLabel="Back to the schools page"
          />
        </AnswerRegion>
        <AnswerRegion region="form">
          <p className="schools-section__intro">{SCHOOLS.quote.intro}</p>
          <QuoteForm answer={FORM_ANSWER_MARKERS} />
        </AnswerRegion>
      </div>
    </section>
  );
}
