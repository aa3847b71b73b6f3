import { useId, type ReactNode } from 'react';
import { CONTACT_EMAIL, LINKS } from '#src/config/site.ts';
import { useHydrated } from '#src/lib/use-hydrated.ts';
import '#src/styles/forms.css';

export const SUBMITTING_STATUS_TEXT = 'Submitting…';

/** Shown under an inert button until the page's JavaScript has taken the form over (direct mode). */
export const FORM_NOT_READY_TEXT = {
  before:
    'This form starts working once the page has finished loading. If the button stays grey, write to us at',
  after: 'instead.',
} as const;

export type SubmitButtonProps = {
  children: ReactNode;
  submitting: boolean;
  /** Disabled for another reason (e.g. a field shows an error). */
  disabled?: boolean;
  /** Relay mode: the form posts itself without JavaScript, so the button works from the first paint. */
  postsNatively: boolean;
  /** Announced to assistive technology while submitting. */
  submittingText?: string;
};

/**
 * The submit button: disabled with a spinner while submitting, announced through a polite status
 * region that exists before it changes. A form that cannot post natively (direct mode: no server,
 * and a bare form would put the email in the address bar) is disabled until hydration, with a note
 * tied to the button giving the contact address; it fades in after a moment, so a quick load never
 * flashes it, and stays without JavaScript.
 */
export function SubmitButton({
  children,
  submitting,
  disabled = false,
  postsNatively,
  submittingText = SUBMITTING_STATUS_TEXT,
}: SubmitButtonProps) {
  const hydrated = useHydrated();
  const noteId = useId();
  const waiting = !postsNatively && !hydrated;
  return (
    <>
      <button
        type="submit"
        className="button button--primary form-submit"
        disabled={submitting || disabled || waiting}
        aria-busy={submitting || undefined}
        aria-describedby={waiting ? noteId : undefined}
      >
        {submitting ? <span className="form-spinner" aria-hidden="true" /> : null}
        <span>{children}</span>
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {submitting ? submittingText : ''}
      </span>
      {waiting ? (
        <p id={noteId} className="form-not-ready">
          {FORM_NOT_READY_TEXT.before} <a href={LINKS.contactMailto}>{CONTACT_EMAIL}</a>{' '}
          {FORM_NOT_READY_TEXT.after}
        </p>
      ) : null}
    </>
  );
}
