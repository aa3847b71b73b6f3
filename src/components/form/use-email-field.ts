import { useCallback, useRef, useState, type ChangeEvent, type RefObject } from 'react';
import { MESSAGES } from '#src/config/messages.ts';
import { isAcceptedEmail } from '#src/lib/email.ts';

export type UseEmailFieldOptions = {
  /** The rule a value must pass (the forms': isAcceptedEmail). */
  isValid?: (value: string) => boolean;
  /** The message shown under the field while the value fails the rule. */
  message?: string;
  initialValue?: string;
};

export type EmailFieldState = {
  value: string;
  /** The message to show, or null when there is no error. */
  error: string | null;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  /** For submit: shows or clears the error, focuses the input when it fails, returns whether it passed. */
  validate: () => boolean;
  setValue: (value: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  /** The props a Field takes from this state, to spread. */
  input: Pick<EmailFieldState, 'value' | 'onChange' | 'onBlur' | 'inputRef'>;
};

/**
 * State and validation timing for an email field, GOV.UK style: checked on blur (when not empty)
 * and on submit, then re-checked on every change while an error is shown, so the message clears
 * as soon as the visitor fixes it and never nags while they are still typing a first attempt.
 */
export function useEmailField({
  isValid = isAcceptedEmail,
  message = MESSAGES.invalidEmail,
  initialValue = '',
}: UseEmailFieldOptions = {}): EmailFieldState {
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const check = useCallback(
    (candidate: string) => {
      const passed = isValid(candidate);
      setError(passed ? null : message);
      return passed;
    },
    [isValid, message],
  );

  const onChange = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => {
      const next = event.target.value;
      setValue(next);
      if (error !== null) check(next);
    },
    [check, error],
  );

  const onBlur = useCallback(() => {
    // An untouched or emptied field is not an error until the visitor tries to submit.
    if (value.trim() !== '') check(value);
  }, [check, value]);

  const validate = useCallback(() => {
    const passed = check(value);
    if (!passed) inputRef.current?.focus();
    return passed;
  }, [check, value]);

  const input = { value, onChange, onBlur, inputRef };
  return { ...input, error, validate, setValue, input };
}
