import { useFirstFocusWithin } from '#src/components/form/use-first-focus-within.ts';
import { preloadStorage } from '#src/lib/airtable/preload.ts';
import { useEffect, useRef, useState } from 'react';
import { EMAIL_INPUT, Field } from '#src/components/form/field.tsx';
import { FORMS_POST_NATIVELY, nativeFormAttributes } from '#src/components/form/native-post.ts';
import type { NativePostProps } from '#src/components/form/native-post.ts';
import { useAdoptedFormValues } from '#src/components/form/use-adopted-form-values.ts';
import { useHydrated } from '#src/lib/use-hydrated.ts';
import { SuccessIcon } from '#src/components/icons.tsx';
import { HoneypotField } from '#src/components/form/honeypot-field.tsx';
import { SubmitButton } from '#src/components/form/submit-button.tsx';
import { ToggleCard } from '#src/components/form/toggle-card.tsx';
import { useEmailField } from '#src/components/form/use-email-field.ts';
import { useFormSubmit } from '#src/components/form/use-form-submit.ts';
import { MESSAGES } from '#src/config/messages.ts';
import { submitQuoteRequest, type SubmitResult } from '#src/lib/forms/send-form.ts';
import { OTHER_USE_CASE_ID, type UseCaseId, USE_CASE_OPTIONS, postedUseCases } from './use-cases.ts';
import { QUOTE_FORM, type QuotePosted } from '#src/lib/forms/forms.ts';
import { toast } from '#src/lib/toast.ts';
import { WAKES_APP_ATTRIBUTE } from '#src/lib/page-marks.ts';

/** Ids of the quote form's fields, for labels, tests and in-page focus. */
export const QUOTE_FIELD_IDS = {
  name: 'quote-name',
  email: 'quote-email',
  school: 'quote-school',
  role: 'quote-role',
  otherUseCase: 'quote-other-use-case',
} as const;

const QUOTE_THANK_YOU_ID = 'quote-thank-you';

const { fields: FIELDS } = QUOTE_FORM;

/** Post names of the form's fields, from its contract. */
const QUOTE_FIELD_NAMES = {
  name: FIELDS.contactName.post,
  email: FIELDS.email.post,
  school: FIELDS.schoolName.post,
  role: FIELDS.role.post,
  useCases: FIELDS.useCases.post,
  otherUseCase: FIELDS.otherUseCase.post,
} as const;

/** Where the page's 'Get a Quote' button moves focus: the first field, or the thank-you heading once sent. */
export const QUOTE_FOCUS_TARGET_IDS: readonly string[] = [QUOTE_FIELD_IDS.name, QUOTE_THANK_YOU_ID];

export const QUOTE_FORM_LABELS = {
  name: FIELDS.contactName.label,
  email: FIELDS.email.label,
  school: FIELDS.schoolName.label,
  role: FIELDS.role.label,
  useCases: FIELDS.useCases.label,
  useCasesHint: 'Choose any that apply.',
  otherUseCase: FIELDS.otherUseCase.label,
  submit: 'Request a Quote',
  submitting: 'Sending your request…',
  chosenUseCases: 'Your chosen use cases',
} as const;

export type QuoteFormProps = NativePostProps & {
  /** Sends the request; tests pass a stand-in. Must resolve (not throw) with the outcome. */
  submit?: (posted: QuotePosted) => Promise<SubmitResult>;
};

/** The free-text fields (all but the email, which has its own state and rule). */
const TEXT_KEYS = ['name', 'school', 'role', 'otherUseCase'] as const;
type TextKey = (typeof TEXT_KEYS)[number];

/** Each free-text field's value, read by its post name. */
const readTexts = (read: (postName: string) => string) =>
  Object.fromEntries(TEXT_KEYS.map((key) => [key, read(QUOTE_FIELD_NAMES[key])])) as Record<TextKey, string>;

const isUseCaseId = (value: string): value is UseCaseId =>
  USE_CASE_OPTIONS.some((option) => option.id === value);

/**
 * The schools 'Get a Quote' form: idle → submitting → submitted (replaced by a thank-you, use-case
 * cards locked) or back to idle with an error toast and every value kept. Only the email is checked.
 * A plain HTML form underneath: before hydration (or without JavaScript) it posts itself in relay
 * mode, its cards toggle natively and the Other box shows with CSS; once hydrated it adopts what
 * the browser holds and takes the submit over.
 */
export function QuoteForm({
  submit = submitQuoteRequest,
  postsNatively = FORMS_POST_NATIVELY,
  answer,
}: QuoteFormProps) {
  const [texts, setTexts] = useState(() => readTexts((name) => answer?.value(name) ?? ''));
  const [selected, setSelected] = useState<ReadonlySet<UseCaseId>>(() => new Set());
  const email = useEmailField({ initialValue: answer?.value(QUOTE_FIELD_NAMES.email) ?? '' });
  const hydrated = useHydrated();

  const formRef = useRef<HTMLFormElement>(null);
  const thankYouRef = useRef<HTMLHeadingElement>(null);
  useFirstFocusWithin(formRef, preloadStorage);
  const otherSelected = selected.has(OTHER_USE_CASE_ID);
  const native = postsNatively || answer !== undefined;
  const { status, handleSubmit } = useFormSubmit({
    honeypot: QUOTE_FORM.honeypot,
    validate: email.validate,
    // The same fields the native post sends, by the contract's post names.
    send: () =>
      submit({
        contactName: texts.name,
        email: email.value,
        schoolName: texts.school,
        role: texts.role,
        useCases: postedUseCases(selected),
        otherUseCase: otherSelected ? texts.otherUseCase : '',
      }),
    onDone: () => toast.success(MESSAGES.quoteSuccessToast),
    // The default never throws; a replacement might, and the visitor still needs an answer.
    failureLog: `${QUOTE_FORM.words.logName} failed:`,
  });
  const submitted = status === 'done';

  // What the browser already holds (autofill, a quick visitor) is the form's state from hydration on.
  useAdoptedFormValues(formRef, (held) => {
    setTexts(readTexts(held.text));
    email.setValue(held.text(QUOTE_FIELD_NAMES.email));
    setSelected(new Set(held.all(QUOTE_FIELD_NAMES.useCases).filter(isUseCaseId)));
  });

  useEffect(() => {
    if (submitted) thankYouRef.current?.focus();
  }, [submitted]);

  const setText = (key: TextKey, value: string) => setTexts((current) => ({ ...current, [key]: value }));

  const toggleUseCase = (id: UseCaseId, checked: boolean) => {
    if (submitted) return;
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  };

  const renderUseCaseCards = (locked: boolean) =>
    USE_CASE_OPTIONS.map((option) => (
      <li key={option.id}>
        <ToggleCard
          label={option.label}
          description={option.description}
          value={option.id}
          name={QUOTE_FIELD_NAMES.useCases}
          checked={selected.has(option.id)}
          disabled={locked}
          onCheckedChange={(checked) => toggleUseCase(option.id, checked)}
          inputAttributes={answer?.checkbox(QUOTE_FIELD_NAMES.useCases)}
          className={option.id === OTHER_USE_CASE_ID ? 'quote-form__other-card' : undefined}
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
  const emailField = (error: string | null) => (
    <Field
      {...EMAIL_INPUT}
      {...email.input}
      id={QUOTE_FIELD_IDS.email}
      label={QUOTE_FORM_LABELS.email}
      error={error}
    />
  );
  const textField = (key: 'name' | 'school' | 'role', autoComplete: string) => (
    <Field
      id={QUOTE_FIELD_IDS[key]}
      label={QUOTE_FORM_LABELS[key]}
      name={QUOTE_FIELD_NAMES[key]}
      autoComplete={autoComplete}
      required
      value={texts[key]}
      onChange={(event) => setText(key, event.target.value)}
    />
  );
  return (
    <form
      ref={formRef}
      {...{ [WAKES_APP_ATTRIBUTE]: '' }}
      className="quote-form"
      {...nativeFormAttributes(QUOTE_FORM, native)}
      noValidate
      onSubmit={handleSubmit}
      aria-busy={submitting || undefined}
    >
      <div className="quote-form__grid">
        {textField('name', 'name')}
        {answer ? answer.emailField(emailField) : emailField(email.error)}
        {textField('school', 'organization')}
        {textField('role', 'organization-title')}
      </div>

      <fieldset className="quote-form__use-cases" aria-describedby="quote-use-cases-hint">
        <legend className="quote-form__legend">{QUOTE_FORM_LABELS.useCases}</legend>
        <p id="quote-use-cases-hint" className="form-hint">
          {QUOTE_FORM_LABELS.useCasesHint}
        </p>
        <ul className="quote-form__cards">{renderUseCaseCards(false)}</ul>
        {/* Until hydration (and in the answer page) CSS shows the box while 'Other' is ticked (:has);
            once hydrated, it exists only while 'Other' is chosen. */}
        {otherSelected || !hydrated || answer !== undefined ? (
          <Field
            id={QUOTE_FIELD_IDS.otherUseCase}
            className="quote-form__other"
            label={QUOTE_FORM_LABELS.otherUseCase}
            name={QUOTE_FIELD_NAMES.otherUseCase}
            maxLength={FIELDS.otherUseCase.maxLength}
            value={texts.otherUseCase}
            onChange={(event) => setText('otherUseCase', event.target.value)}
          />
        ) : null}
      </fieldset>

      <HoneypotField name={QUOTE_FORM.honeypot} />

      <div className="quote-form__actions">
        <SubmitButton
          submitting={submitting}
          submittingText={QUOTE_FORM_LABELS.submitting}
          postsNatively={native}
        >
          {QUOTE_FORM_LABELS.submit}
        </SubmitButton>
      </div>
    </form>
  );
}
