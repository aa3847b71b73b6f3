import { CheckIcon } from '@/components/icons';
import { useFirstFocusWithin } from '@/components/form/use-first-focus-within';
import { preloadStorage } from '@/lib/airtable/preload';
import type { SubmitResult } from '@/lib/airtable/submit-form';
import { useCallback, useRef, useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import { EMAIL_INPUT, Field } from '@/components/form/field';
import type { FormAnswerMarkers } from '@/components/form/form-answer';
import { FORMS_POST_NATIVELY, nativeFormAttributes } from '@/components/form/native-post';
import { useAdoptedFormValues, type HeldFormValues } from '@/components/form/use-adopted-form-values';
import { HoneypotField, isHoneypotFilled } from '@/components/form/honeypot-field';
import { SubmitButton } from '@/components/form/submit-button';
import { ToggleCard } from '@/components/form/toggle-card';
import { useEmailField } from '@/components/form/use-email-field';
import { useSingleSubmit } from '@/components/form/use-single-submit';
import { DEFAULT_INTEREST_HOME_FORM } from '@/config/constants';
import { MESSAGES } from '@/config/messages';
import { WAITLIST_INTEREST_OPTIONS } from '@/content/home';
import { addToWaitlist, type WaitlistSignUp } from '@/features/waitlist/add-to-waitlist';
import { isAcceptedEmail } from '@/lib/email';
import '@/features/waitlist/waitlist-form.css';

export type WaitlistFormStatus = 'idle' | 'submitting' | 'joined';

export type WaitlistFormProps = {
  /** Sends the sign-up; component tests pass a fake. */
  submit?: (signUp: WaitlistSignUp) => Promise<SubmitResult>;
  /** Id of the heading that names the form. */
  labelledBy?: string;
  /** Prefix for element ids, so two forms could share a page. */
  idPrefix?: string;
  /**
   * The form posts itself to the site's native door before hydration and without JavaScript
   * (relay mode, the build's default); without it the button waits for hydration (direct mode).
   */
  postsNatively?: boolean;
  /**
   * Renders the form for its answer template (src/server/form-page.ts): markers for the posted
   * values and both states of the email field. Only the answer page passes it; never hydrated.
   */
  answer?: FormAnswerMarkers;
};

/** Native names of the form's fields: the server's native door parses exactly these. */
export const WAITLIST_FIELD_NAMES = { email: 'email', interests: 'interests' } as const;

/** The id of the form's email input (the error summary of its answer page links to it). */
export const waitlistEmailId = (idPrefix = 'waitlist') => `${idPrefix}-email`;

export const WAITLIST_FORM_TEXT = {
  emailLabel: 'Email address',
  interestsLegend: 'I’m interested in (choose any)',
  submit: 'Join the waitlist',
} as const;

/** The chosen interests in the form's order, or the home form's default when none is chosen. */
export function interestsToSend(chosen: readonly string[]): string[] {
  const ordered = WAITLIST_INTEREST_OPTIONS.map((option) => option.value).filter((value) =>
    chosen.includes(value),
  );
  return ordered.length > 0 ? ordered : [DEFAULT_INTEREST_HOME_FORM];
}

/**
 * The home page's waitlist sign-up: an email and optional interest cards.
 * idle → submitting → joined, or back to idle with a toast and everything the visitor typed kept.
 */
export function WaitlistForm({
  submit = addToWaitlist,
  labelledBy,
  idPrefix = 'waitlist',
  postsNatively = FORMS_POST_NATIVELY,
  answer,
}: WaitlistFormProps) {
  const email = useEmailField({
    isValid: isAcceptedEmail,
    message: MESSAGES.invalidEmail,
    initialValue: answer?.value(WAITLIST_FIELD_NAMES.email) ?? '',
  });
  const [interests, setInterests] = useState<string[]>([]);
  const [status, setStatus] = useState<WaitlistFormStatus>('idle');
  const singleSubmit = useSingleSubmit();
  const emailInput = useRef<HTMLInputElement>(null);
  const result = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useFirstFocusWithin(form, preloadStorage);

  // What the browser already holds (autofill, a quick visitor) is the form's state from hydration on.
  const { setValue: setEmail } = email;
  const adopt = useCallback(
    (held: HeldFormValues) => {
      setEmail(held.text(WAITLIST_FIELD_NAMES.email));
      setInterests(held.all(WAITLIST_FIELD_NAMES.interests));
    },
    [setEmail],
  );
  useAdoptedFormValues(form, adopt);

  const joined = status === 'joined';
  const native = postsNatively || answer !== undefined;
  const submitting = status === 'submitting';

  const toggleInterest = (value: string, checked: boolean) => {
    setInterests((current) =>
      checked
        ? [...current.filter((item) => item !== value), value]
        : current.filter((item) => item !== value),
    );
  };

  const join = () => {
    setStatus('joined');
    // The submit button that had focus is gone: hand focus to the confirmation.
    requestAnimationFrame(() => result.current?.focus());
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (joined) return;
    const form = event.currentTarget;
    void singleSubmit.run(async () => {
      if (!email.validate()) {
        emailInput.current?.focus();
        return;
      }
      // A bot filled the trap: send nothing, but look like success so it learns nothing.
      if (isHoneypotFilled(form)) {
        join();
        return;
      }
      setStatus('submitting');
      let success = false;
      try {
        ({ success } = await submit({ email: email.value.trim(), interests: interestsToSend(interests) }));
      } catch (error) {
        console.error('Waitlist sign-up failed:', error);
      }
      if (success) {
        join();
      } else {
        setStatus('idle');
        toast.error(MESSAGES.genericFailureToast);
      }
    });
  };

  const emailField = (error: string | null) => (
    <Field
      {...EMAIL_INPUT}
      id={waitlistEmailId(idPrefix)}
      label={WAITLIST_FORM_TEXT.emailLabel}
      value={email.value}
      error={error}
      onChange={email.onChange}
      onBlur={email.onBlur}
      inputRef={emailInput}
      className="waitlist-form__email"
    />
  );

  return (
    <form
      ref={form}
      className={`waitlist-form${joined ? ' waitlist-form--joined' : ''}`}
      {...nativeFormAttributes('waitlist', native)}
      noValidate
      onSubmit={handleSubmit}
      aria-labelledby={labelledBy}
    >
      <fieldset className="waitlist-form__interests">
        <legend className="waitlist-form__legend">{WAITLIST_FORM_TEXT.interestsLegend}</legend>
        <div className="waitlist-form__cards">
          {WAITLIST_INTEREST_OPTIONS.map((option) => (
            <ToggleCard
              key={option.value}
              name={WAITLIST_FIELD_NAMES.interests}
              value={option.value}
              label={option.value}
              description={option.description}
              checked={interests.includes(option.value)}
              onCheckedChange={(checked) => toggleInterest(option.value, checked)}
              disabled={joined}
              inputAttributes={answer?.checkbox(WAITLIST_FIELD_NAMES.interests)}
            />
          ))}
        </div>
      </fieldset>

      <div className="waitlist-form__action">
        {joined ? null : (
          <div className="waitlist-form__row">
            {answer ? answer.emailField(emailField) : emailField(email.error)}
            <SubmitButton submitting={submitting} disabled={email.error !== null} postsNatively={native}>
              {WAITLIST_FORM_TEXT.submit}
            </SubmitButton>
          </div>
        )}

        <div ref={result} className="waitlist-form__result" role="status" tabIndex={-1}>
          {joined ? (
            <button type="button" className="button waitlist-form__joined" disabled>
              <CheckIcon size={20} />
              {MESSAGES.waitlistJoined}
            </button>
          ) : null}
        </div>
      </div>

      {joined ? null : <HoneypotField name="company_website" id={`${idPrefix}-company-website`} />}
    </form>
  );
}
