import type { ChangeEvent, ReactNode, Ref } from 'react';
import '@/styles/forms.css';

export type EmailFieldProps = {
  /** Id of the input; the hint and error ids derive from it. */
  id: string;
  label: ReactNode;
  value: string;
  /** The message to show under the field, or null. */
  error: string | null;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur?: () => void;
  name?: string;
  hint?: ReactNode;
  disabled?: boolean;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
};

/**
 * A labelled email input with its error message under it (GOV.UK pattern): the message is tied
 * to the input with aria-describedby, the input is marked aria-invalid, and the message sits in
 * a polite live region so it is also announced when it appears on blur.
 */
export function EmailField({
  id,
  label,
  value,
  error,
  onChange,
  onBlur,
  name = 'email',
  hint,
  disabled = false,
  placeholder,
  inputRef,
  className,
}: EmailFieldProps) {
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
        ref={inputRef}
        id={id}
        className="form-input"
        type="email"
        name={name}
        required
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        autoCapitalize="none"
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        disabled={disabled}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <div className="form-error-slot" aria-live="polite">
        {error ? (
          <p className="form-error" id={errorId}>
            <svg
              className="form-error__icon"
              viewBox="0 0 20 20"
              width="18"
              height="18"
              aria-hidden="true"
              focusable="false"
            >
              <circle cx="10" cy="10" r="9" fill="currentColor" />
              <path d="M10 5v6" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
              <circle cx="10" cy="14.5" r="1.3" fill="#fff" />
            </svg>
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
