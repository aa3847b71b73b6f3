import type { ReactNode } from 'react';
import { SuccessIcon } from '#src/components/icons.tsx';
import { MESSAGES } from '#src/config/messages.ts';
import {
  FORM_ANSWER_CHECKBOX_ATTRIBUTE,
  FORM_ANSWER_REGION_ATTRIBUTE,
  formAnswerValueToken,
  type FormAnswerRegion,
} from '#src/lib/page-templates.ts';
import '#src/styles/form-states.css';

// The pieces of a form's answer template, the page src/server/doors/form-answer.ts fills after a native
// post. Rendered once at build time, never hydrated.

/** The heading of an error summary (GOV.UK Design System). */
export const ERROR_SUMMARY_TITLE = 'There is a problem';

type TemplateRegionProps = { attribute: string; region: string; children: ReactNode };

/** A part of a page template the Worker keeps or cuts per answer (src/lib/page-templates.ts). */
export function TemplateRegion({ attribute, region, children }: TemplateRegionProps) {
  return (
    <>
      <template {...{ [attribute]: region }} />
      {children}
      <template {...{ [attribute]: `/${region}` }} />
    </>
  );
}

/** A part of a form's answer template that only some outcomes keep. */
export const AnswerRegion = ({ region, children }: { region: FormAnswerRegion; children: ReactNode }) => (
  <TemplateRegion attribute={FORM_ANSWER_REGION_ATTRIBUTE} region={region}>
    {children}
  </TemplateRegion>
);

/**
 * What a form renders differently for its answer template. Only the answer pages pass it (they
 * are rendered at build time, never in the browser), so none of this reaches a page's JavaScript.
 */
export type FormAnswerMarkers = {
  /** Where the posted value of the text field `name` goes. */
  value: (name: string) => string;
  /** The marker that lets the server tick a checkbox of the field `name` that was posted. */
  checkbox: (name: string) => Readonly<Record<`data-${string}`, string>>;
  /** The email field in both states, the server keeping the one that applies. */
  emailField: (render: (error: string | null) => ReactNode) => ReactNode;
};

export const FORM_ANSWER_MARKERS: FormAnswerMarkers = {
  value: formAnswerValueToken,
  checkbox: (name) => ({ [FORM_ANSWER_CHECKBOX_ATTRIBUTE]: name }),
  emailField: (render) => (
    <>
      <AnswerRegion region="email-ok">{render(null)}</AnswerRegion>
      <AnswerRegion region="email-error">{render(MESSAGES.invalidEmail)}</AnswerRegion>
    </>
  ),
};

/** A GOV.UK error summary: first in the page, announced as an alert, each problem a link to its field. */
function ErrorSummary({ children }: { children: ReactNode }) {
  return (
    // A new page with no script: autofocus takes focus there, as GOV.UK's script does.
    // eslint-disable-next-line jsx-a11y/no-autofocus
    <div className="form-error-summary" tabIndex={-1} autoFocus>
      <div role="alert">
        <h2 className="form-error-summary__title">{ERROR_SUMMARY_TITLE}</h2>
        <div className="form-error-summary__body">{children}</div>
      </div>
    </div>
  );
}

/** Both error summaries a form's answer can open with; the server keeps the one that applies. */
export function FormAnswerSummaries({ emailFieldId }: { emailFieldId: string }) {
  return (
    <>
      <AnswerRegion region="invalid-email">
        <ErrorSummary>
          <ul className="form-error-summary__list">
            <li>
              <a href={`#${emailFieldId}`}>{MESSAGES.invalidEmail}</a>
            </li>
          </ul>
        </ErrorSummary>
      </AnswerRegion>
      <AnswerRegion region="failure">
        <ErrorSummary>
          <p>{MESSAGES.genericFailureToast}</p>
        </ErrorSummary>
      </AnswerRegion>
    </>
  );
}

export type FormAnswerConfirmationProps = {
  title: string;
  body?: string;
  /** The form's own page, to go back to. */
  backHref: string;
  backLabel: string;
};

/** The confirmation a stored (or queued) native post is answered with, focused on arrival. */
export function FormAnswerConfirmation({ title, body, backHref, backLabel }: FormAnswerConfirmationProps) {
  return (
    <div className="form-answer-confirmation">
      <SuccessIcon className="form-answer-confirmation__icon" />
      {/* A new page with no script: autofocus takes focus (and screen readers) to the answer. */}
      {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
      <h2 className="form-answer-confirmation__title" tabIndex={-1} autoFocus>
        {title}
      </h2>
      {body ? <p className="form-answer-confirmation__body">{body}</p> : null}
      <p>
        <a className="button button--primary" href={backHref}>
          {backLabel}
        </a>
      </p>
    </div>
  );
}
