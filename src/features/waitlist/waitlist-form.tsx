import { CheckIcon } from '#src/components/icons.tsx';
import { useFirstFocusWithin } from '#src/components/form/use-first-focus-within.ts';
import { preloadStorage } from '#src/lib/airtable/preload.ts';
import { type SubmitResult, addToWaitlist } from '#src/lib/forms/send-form.ts';
import { type InterestId, WAITLIST_FORM, type WaitlistPosted } from '#src/lib/forms/forms.ts';
import { useRef, useState } from 'react';
import { EMAIL_INPUT, Field } from '#src/components/form/field.tsx';
import { FORMS_POST_NATIVELY, nativeFormAttributes } from '#src/components/form/native-post.ts';
import type { NativePostProps } from '#src/components/form/native-post.ts';
import { useAdoptedFormValues } from '#src/components/form/use-adopted-form-values.ts';
import { HoneypotField } from '#src/components/form/honeypot-field.tsx';
import { SubmitButton } from '#src/components/form/submit-button.tsx';
import { ToggleCard } from '#src/components/form/toggle-card.tsx';
import { useEmailField } from '#src/components/form/use-email-field.ts';
import { useFormSubmit } from '#src/components/form/use-form-submit.ts';
import { MESSAGES, WAITLIST_CONSENT_STATEMENT } from '#src/config/messages.ts';
import { WAITLIST_INTEREST_OPTIONS } from '#src/content/home.ts';
import { ROUTE_PATHS } from '#src/config/site.ts';
import { WAKES_APP_ATTRIBUTE } from '#src/lib/page-marks.ts';
import './waitlist-form.css';

export type WaitlistFormProps = NativePostProps & {
  /** Sends the sign-up; component tests pass a fake. */
  submit?: (posted: WaitlistPosted) => Promise<SubmitResult>;
  /** Id of the heading that names the form. */
  labelledBy?: string;
};

const { fields: FIELDS } = WAITLIST_FORM;

/** The id of the form's email input (the error summary of its answer page links to it). */
export const WAITLIST_EMAIL_ID = 'waitlist-email';

export const WAITLIST_FORM_TEXT = {
  emailLabel: FIELDS.email.label,
  interestsLegend: FIELDS.interests.label,
  submit: 'Join the waitlist',
  privacyLink: 'How we use your email: our privacy policy',
} as const;

/** The chosen ids in the form's order, as posted natively; none if none (creation sets the default). */
export function interestsToSend(chosen: readonly string[]): InterestId[] {
  return WAITLIST_INTEREST_OPTIONS.map((option) => option.id).filter((id) => chosen.includes(id));
}

const isInterestId = (value: string): value is InterestId =>
  WAITLIST_INTEREST_OPTIONS.some((option) => option.id === value);

/**
 * The home page's waitlist sign-up: an email and optional interest cards.
 * idle → submitting → joined, or back to idle with a toast and everything the visitor typed kept.
 */
export function WaitlistForm({
  submit = addToWaitlist,
  labelledBy,
  postsNatively = FORMS_POST_NATIVELY,
  answer,
}: WaitlistFormProps) {
  const email = useEmailField({ initialValue: answer?.value(FIELDS.email.post) ?? '' });
  const [interests, setInterests] = useState<InterestId[]>([]);
  const result = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useFirstFocusWithin(form, preloadStorage);

  // What the browser already holds (autofill, a quick visitor) is the form's state from hydration on.
  useAdoptedFormValues(form, (held) => {
    email.setValue(held.text(FIELDS.email.post));
    setInterests(held.all(FIELDS.interests.post).filter(isInterestId));
  });

  const toggleInterest = (value: InterestId, checked: boolean) =>
    setInterests((current) => [...current.filter((item) => item !== value), ...(checked ? [value] : [])]);

  const { status, handleSubmit } = useFormSubmit({
    honeypot: WAITLIST_FORM.honeypot,
    validate: email.validate,
    send: () => submit({ email: email.value.trim(), interests: interestsToSend(interests) }),
    // The submit button that had focus is gone: hand focus to the confirmation.
    onDone: () => requestAnimationFrame(() => result.current?.focus()),
    failureLog: `${WAITLIST_FORM.words.logName} failed:`,
  });
  const joined = status === 'done';
  const native = postsNatively || answer !== undefined;
  const submitting = status === 'submitting';

  const emailField = (error: string | null) => (
    <Field
      {...EMAIL_INPUT}
      {...email.input}
      id={WAITLIST_EMAIL_ID}
      label={WAITLIST_FORM_TEXT.emailLabel}
      error={error}
      className="waitlist-form__email"
    />
  );

  return (
    <form
      ref={form}
      {...{ [WAKES_APP_ATTRIBUTE]: '' }}
      className={`waitlist-form${joined ? ' waitlist-form--joined' : ''}`}
      {...nativeFormAttributes(WAITLIST_FORM, native)}
      noValidate
      onSubmit={handleSubmit}
      aria-labelledby={labelledBy}
    >
      <fieldset className="waitlist-form__interests">
        <legend className="waitlist-form__legend">{WAITLIST_FORM_TEXT.interestsLegend}</legend>
        <div className="waitlist-form__cards">
          {WAITLIST_INTEREST_OPTIONS.map((option) => (
            <ToggleCard
              key={option.id}
              name={FIELDS.interests.post}
              value={option.id}
              label={option.label}
              description={option.description}
              checked={interests.includes(option.id)}
              onCheckedChange={(checked) => toggleInterest(option.id, checked)}
              disabled={joined}
              inputAttributes={answer?.checkbox(FIELDS.interests.post)}
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

        {/* What the visitor agrees to (relay and queued modes, where the server confirms each
            address by email; docs/consent.md). Stored word for word with the sign-up. */}
        {joined || !native ? null : (
          <p className="waitlist-form__consent" id="waitlist-consent">
            {WAITLIST_CONSENT_STATEMENT} <a href={ROUTE_PATHS.privacy}>{WAITLIST_FORM_TEXT.privacyLink}</a>
          </p>
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

      {joined ? null : <HoneypotField name={WAITLIST_FORM.honeypot} id="waitlist-company-website" />}
    </form>
  );
}
