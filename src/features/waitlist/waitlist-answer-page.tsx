import {
  AnswerRegion,
  FORM_ANSWER_MARKERS,
  FormAnswerConfirmation,
  FormAnswerSummaries,
} from '#src/components/form/form-answer.tsx';
import { MESSAGES } from '#src/config/messages.ts';
import { HOME } from '#src/content/home.ts';
import { WAITLIST_EMAIL_ID, WaitlistForm } from './waitlist-form.tsx';
import '#src/styles/home.css';

const WAITLIST_ANSWER_HEADING_ID = 'waitlist-answer-heading';

/**
 * The page the server answers a native waitlist post with (src/server/doors/form-answer.ts): the spec's
 * confirmation, or an error summary and the form again with everything kept, posting natively.
 */
export function WaitlistAnswerPage({ backHref }: { backHref: string }) {
  return (
    <section className="home-waitlist form-answer" aria-labelledby={WAITLIST_ANSWER_HEADING_ID}>
      <div className="section home-waitlist__inner">
        <FormAnswerSummaries emailFieldId={WAITLIST_EMAIL_ID} />
        <h1 id={WAITLIST_ANSWER_HEADING_ID} className="home-section-title">
          {HOME.waitlist.heading}
        </h1>
        <AnswerRegion region="confirmed">
          <FormAnswerConfirmation
            title={MESSAGES.waitlistJoined}
            backHref={backHref}
            backLabel="Back to the home page"
          />
        </AnswerRegion>
        <AnswerRegion region="form">
          <p className="home-waitlist__intro">{HOME.waitlist.intro}</p>
          <WaitlistForm answer={FORM_ANSWER_MARKERS} labelledBy={WAITLIST_ANSWER_HEADING_ID} />
        </AnswerRegion>
      </div>
    </section>
  );
}
