import { useFirstFocusWithin } from '@/components/form/use-first-focus-within';
import { preloadStorage } from '@/lib/airtable/preload';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { EMAIL_INPUT, Field } from '@/components/form/field';
import { SuccessIcon } from '@/components/icons';
import { HoneypotField, isHoneypotFilled } from '@/components/form/honeypot-field';
import { SubmitButton } from '@/components/form/submit-button';
import { ToggleCard } from '@/components/form/toggle-card';
import { useEmailField } from '@/components/form/use-email-field';
import { useSingleSubmit } from '@/components/form/use-single-submit';
import { MESSAGES } from '@/config/messages';
import { PRODUCT_NAME } from '@/config/site';
import { type QuoteSubmitResult, submitQuoteRequest } from '@/features/quote/submit-quote';
import { type UseCaseId, USE_CASE_OPTIONS, toUseCaseSelection } from '@/features/quote/use-cases';
import type { QuoteRequestInput } from '@/lib/airtable/upsert';
import { isValidEmail } from '@/lib/email';
import { toast } from '@/lib/toast';

/** Ids of the quote form's fields, for labels, tests and in-page focus. */
export const QUOTE_FIELD_IDS = {
  name: 'quote-name',
  email: 'quote-email',
  school: 'quote-school',
  role: 'quote-role',
  otherUseCase: 'quote-other-use-case',
} as const;

export const QUOTE_THANK_YOU_ID = 'quote-thank-you';

/** Where the page's 'Get a Quote' button moves focus: the first field, or the thank-you heading once sent. */
export const QUOTE_FOCUS_TARGET_IDS: readonly string[] = [QUOTE_FIELD_IDS.name, QUOTE_THANK_YOU_ID];

export const QUOTE_FORM_LABELS = {
  name: 'Your Name',
  email: 'Email Address',
  school: 'School/Institution Name',
  role: 'Role',
  useCases: `How would you like to use ${PRODUCT_NAME}?`,
  useCasesHint: 'Choose any that apply.',
  otherUseCase: 'Tell us how you would use it',
  submit: 'Request a Quote',
  submitting: 'Sending your request…',
  chosenUseCases: 'Your chosen use cases',
} as const;

export type QuoteFormStatus = 'idle' | 'submitting' | 'submitted';

export type QuoteFormProps = {
  /** Sends the request; tests pass a stand-in. Must resolve (not throw) with the outcome. */
  submit?: (input: QuoteRequestInput) => Promise<QuoteSubmitResult>;
};

/**
 * The schools 'Get a Quote' form: idle → submitting → submitted (replaced by a thank-you, use-case
 * cards locked) or back to idle with an error toast and every value kept. Only the email is checked.
 */
export function QuoteForm({ submit = submitQuoteRequest }: QuoteFormProps) {
  const [status, setStatus] = useState<QuoteFormStatus>('idle');
  const [contactName, setContactName] = useState('');
  const [schoolName, setSchoolName] = useState('');
  const [role, setRole] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<UseCaseId>>(() => new Set());
  const [otherText, setOtherText] = useState('');
  const email = useEmailField({ isValid: isValidEmail, message: MESSAGES.invalidEmail });
  const { run } = useSingleSubmit();

  const formRef = useRef<HTMLFormElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const thankYouRef = useRef<HTMLHeadingElement>(null);
  useFirstFocusWithin(formRef, preloadStorage);
  const submitted = status === 'submitted';
  const otherSelected = selected.has('other');

  useEffect(() => {
    if (submitted) thankYouRef.current?.focus();
  }, [submitted]);

  const toggleUseCase = (id: UseCaseId, checked: boolean) => {
    if (submitted) return;
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  };

  const succeed = () => {
    setStatus('submitted');
    toast.success(MESSAGES.quoteSuccessToast);
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status !== 'idle') return;
    if (!email.validate()) {
      emailRef.current?.focus();
      return;
    }
    const form = event.currentTarget;
    void run(async () => {
      // A bot filled the trap: send nothing, but let it believe it worked.
      if (isHoneypotFilled(form)) {
        succeed();
        return;
      }
      setStatus('submitting');
      const { useCases, otherUseCase } = toUseCaseSelection(selected, otherText);
      const input: QuoteRequestInput = {
        email: email.value,
        contactName,
        schoolName,
        role,
        useCases,
        ...(otherUseCase === undefined ? {} : { otherUseCase }),
      };
      let result: QuoteSubmitResult;
      try {
        result = await submit(input);
      } catch (error) {
        // The default never throws; a replacement might, and the visitor still needs an answer.
        console.error('Quote request failed:', error);
        result = { success: false, error: String(error) };
      }
      if (result.success) {
        succeed();
        return;
      }
      setStatus('idle');
      toast.error(MESSAGES.genericFailureToast);
      // The button was disabled while sending, which drops focus; give it back to keyboard users.
      formRef.current?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    });
  };

  const renderUseCaseCards = (locked: boolean) =>
    USE_CASE_OPTIONS.map((option) => (
      <li key={option.id}>
        <ToggleCard
          label={option.label}
          description={option.description}
          value={option.label}
          name="useCases"
          checked={selected.has(option.id)}
          disabled={locked}
          onCheckedChange={(checked) => toggleUseCase(option.id, checked)}
        />
      </li>
    ));

  if (submitted) {
    return (
      <div className="quote-form quote-form--submitted">
        <div className="quote-form__thank-you">
          <SuccessIcon className="quote-form__thank-you-icon" />
          <h3 id={QUOTE_THANK_YOU_ID} ref={thankYouRef} tabIndex={-1} className="quote-form__thank-you-title">
            {MESSAGES.quoteThankYouTitle}
          </h3>
          <p className="quote-form__thank-you-body">{MESSAGES.quoteThankYouBody}</p>
        </div>
        <fieldset className="quote-form__use-cases quote-form__use-cases--locked">
          <legend className="quote-form__legend">{QUOTE_FORM_LABELS.chosenUseCases}</legend>
          <ul className="quote-form__cards">{renderUseCaseCards(true)}</ul>
        </fieldset>
      </div>
    );
  }

  const submitting = status === 'submitting';
  return (
    <form
      ref={formRef}
      className="quote-form"
      noValidate
      onSubmit={handleSubmit}
      aria-busy={submitting || undefined}
    >
      <div className="quote-form__grid">
        <Field
          id={QUOTE_FIELD_IDS.name}
          label={QUOTE_FORM_LABELS.name}
          name="contactName"
          autoComplete="name"
          required
          value={contactName}
          onChange={(event) => setContactName(event.target.value)}
        />
        <Field
          {...EMAIL_INPUT}
          id={QUOTE_FIELD_IDS.email}
          label={QUOTE_FORM_LABELS.email}
          value={email.value}
          error={email.error}
          onChange={email.onChange}
          onBlur={email.onBlur}
          inputRef={emailRef}
        />
        <Field
          id={QUOTE_FIELD_IDS.school}
          label={QUOTE_FORM_LABELS.school}
          name="schoolName"
          autoComplete="organization"
          required
          value={schoolName}
          onChange={(event) => setSchoolName(event.target.value)}
        />
        <Field
          id={QUOTE_FIELD_IDS.role}
          label={QUOTE_FORM_LABELS.role}
          name="role"
          autoComplete="organization-title"
          required
          value={role}
          onChange={(event) => setRole(event.target.value)}
        />
      </div>

      <fieldset className="quote-form__use-cases" aria-describedby="quote-use-cases-hint">
        <legend className="quote-form__legend">{QUOTE_FORM_LABELS.useCases}</legend>
        <p id="quote-use-cases-hint" className="form-hint">
          {QUOTE_FORM_LABELS.useCasesHint}
        </p>
        <ul className="quote-form__cards">{renderUseCaseCards(false)}</ul>
        {otherSelected ? (
          <Field
            id={QUOTE_FIELD_IDS.otherUseCase}
            className="quote-form__other"
            label={QUOTE_FORM_LABELS.otherUseCase}
            name="otherUseCase"
            maxLength={500}
            value={otherText}
            onChange={(event) => setOtherText(event.target.value)}
          />
        ) : null}
      </fieldset>

      <HoneypotField />

      <div className="quote-form__actions">
        <SubmitButton submitting={submitting} submittingText={QUOTE_FORM_LABELS.submitting}>
          {QUOTE_FORM_LABELS.submit}
        </SubmitButton>
      </div>
    </form>
  );
}
