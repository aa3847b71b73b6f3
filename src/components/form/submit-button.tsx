import type { ReactNode } from 'react';
import { useHydrated } from '@/lib/use-hydrated';
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
 * announced through a polite status region that exists before it changes. It is also disabled
 * in the prerendered page until the app has hydrated: a browser's own form submission would put
 * the visitor's email in the address bar and the host's logs.
 */
export function SubmitButton({
  children,
  submitting,
  disabled = false,
  submittingText = SUBMITTING_STATUS_TEXT,
  className,
}: SubmitButtonProps) {
  const hydrated = useHydrated();
  return (
    <>
      <button
        type="submit"
        className={['button', 'button--primary', 'form-submit', className].filter(Boolean).join(' ')}
        disabled={submitting || disabled || !hydrated}
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
