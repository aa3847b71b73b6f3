import type { ReactNode } from 'react';
import '@/styles/forms.css';

export const SUBMITTING_STATUS_TEXT = 'Submitting…';

export type SubmitButtonProps = {
  children: ReactNode;
  submitting: boolean;
  /** Disabled for another reason (e.g. a field shows an error). */
  disabled?: boolean;
  /** Announced to assistive technology while submitting. */
  submittingText?: string;
  className?: string;
};

/**
 * The form's submit button: disabled and showing a spinner while submitting, with the state
 * announced through a polite status region that exists before it changes.
 */
export function SubmitButton({
  children,
  submitting,
  disabled = false,
  submittingText = SUBMITTING_STATUS_TEXT,
  className,
}: SubmitButtonProps) {
  return (
    <>
      <button
        type="submit"
        className={['button', 'button--primary', 'form-submit', className].filter(Boolean).join(' ')}
        disabled={submitting || disabled}
        aria-busy={submitting || undefined}
      >
        {submitting ? <span className="form-spinner" aria-hidden="true" /> : null}
        <span>{children}</span>
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {submitting ? submittingText : ''}
      </span>
    </>
  );
}
