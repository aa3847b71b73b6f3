import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { ErrorIcon } from '#src/components/icons.tsx';
import '#src/styles/forms.css';

/** Attributes the field owns: it sets them from `id`, `hint` and `error`. */
type OwnedAttributes = 'id' | 'className' | 'aria-invalid' | 'aria-describedby' | 'children';

export type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, OwnedAttributes> & {
  /** Id of the input; the hint and error ids derive from it. */
  readonly id: string;
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  /** The message to show under the field, or null/undefined when there is none. */
  readonly error?: string | null;
  readonly inputRef?: Ref<HTMLInputElement>;
  /** Class of the wrapper, added to 'form-field'. */
  readonly className?: string;
};

/** What an email input needs for every visitor and every keyboard: spread into a Field. */
export const EMAIL_INPUT = {
  type: 'email',
  name: 'email',
  required: true,
  autoComplete: 'email',
  inputMode: 'email',
  spellCheck: false,
  autoCapitalize: 'none',
} as const satisfies Partial<FieldProps>;

/**
 * A labelled input of any type with an optional hint and error under it (GOV.UK pattern): the
 * hint and the message are tied to the input with aria-describedby, the input is marked
 * aria-invalid while it has an error, and the message sits in a polite live region so it is
 * also announced when it appears on blur. Every other input attribute passes through.
 */
export function Field({ id, label, hint, error, inputRef, className, type = 'text', ...input }: FieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={['form-field', error ? 'form-field--error' : null, className].filter(Boolean).join(' ')}>
      <label className="form-label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p className="form-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        {...input}
        ref={inputRef}
        id={id}
        type={type}
        className="form-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <div className="form-error-slot" aria-live="polite">
        {error ? (
          <p className="form-error" id={errorId}>
            <ErrorIcon className="form-error__icon" />
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
