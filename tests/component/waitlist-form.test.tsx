import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUBMITTING_STATUS_TEXT } from '#src/components/form/submit-button.tsx';
import { WAITLIST_FORM, type WaitlistPosted } from '#src/lib/forms/forms.ts';
import { WAITLIST_CONSENT_STATEMENT, MESSAGES } from '#src/config/messages.ts';
import { WAITLIST_INTEREST_OPTIONS } from '#src/content/home.ts';
import { addToWaitlist } from '#src/lib/forms/send-form.ts';
import { WAITLIST_FORM_TEXT, WaitlistForm, interestsToSend } from '#src/features/waitlist/waitlist-form.tsx';

vi.mock('#src/lib/forms/send-form.ts', async (original) => ({
  ...(await original<object>()),
  addToWaitlist: vi.fn(async () => ({ success: true })),
}));

type Outcome = { success: boolean };
type Submit = (posted: WaitlistPosted) => Promise<Outcome>;

afterEach(() => {
  act(() => toast.remove());
});

function renderForm(submit?: Submit) {
  const user = userEvent.setup();
  const view = render(
    <>
      <h2 id="waitlist-heading">Stay in the loop</h2>
      <WaitlistForm submit={submit} labelledBy="waitlist-heading" />
      <Toaster />
    </>,
  );
  return { user, ...view };
}

function deferred() {
  let resolve!: (value: Outcome) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Outcome>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const [USE, INVEST, PARTNER] = WAITLIST_INTEREST_OPTIONS.map((option) => option.label) as [
  string,
  string,
  string,
];
const emailInput = () => screen.getByRole('textbox', { name: WAITLIST_FORM_TEXT.emailLabel });
const submitButton = () => screen.getByRole('button', { name: WAITLIST_FORM_TEXT.submit });
const card = (name: string) => screen.getByRole('checkbox', { name });
const joinedButton = () => screen.getByRole('button', { name: MESSAGES.waitlistJoined });

describe('WaitlistForm: idle', () => {
  it('is a named form with an email field and the three interest cards, none chosen', () => {
    renderForm(vi.fn());
    expect(screen.getByRole('form', { name: 'Stay in the loop' })).toBeInTheDocument();
    const input = emailInput();
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('autocomplete', 'email');
    for (const option of WAITLIST_INTEREST_OPTIONS) {
      const box = card(option.label);
      expect(box).not.toBeChecked();
      expect(box).toBeEnabled();
      expect(box).toHaveAccessibleDescription(option.description);
    }
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
    expect(submitButton()).toBeEnabled();
    expect(screen.getByRole('group', { name: WAITLIST_FORM_TEXT.interestsLegend })).toBeInTheDocument();
  });

  it('cards toggle on and off, several at once', async () => {
    const { user } = renderForm(vi.fn());
    await user.click(card(USE));
    await user.click(card(PARTNER));
    expect(card(USE)).toBeChecked();
    expect(card(PARTNER)).toBeChecked();
    expect(card(INVEST)).not.toBeChecked();
    await user.click(card(USE));
    expect(card(USE)).not.toBeChecked();
  });

  it('prerenders without a browser and without the error', () => {
    const html = renderToString(<WaitlistForm submit={vi.fn()} />);
    expect(html).toContain(WAITLIST_FORM_TEXT.submit);
    expect(html).not.toContain(MESSAGES.invalidEmail);
  });
});

describe('WaitlistForm: validation', () => {
  it('on blur: an invalid email shows the message, tied to the field, and disables submit', async () => {
    const { user } = renderForm(vi.fn());
    await user.type(emailInput(), 'parent@example');
    expect(emailInput()).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(emailInput()).toHaveAccessibleDescription(MESSAGES.invalidEmail);
    const message = screen.getByText(MESSAGES.invalidEmail);
    expect(emailInput().getAttribute('aria-describedby')).toContain(message.id);
    expect(submitButton()).toBeDisabled();
  });

  it('on blur: an empty field is left alone', async () => {
    const { user } = renderForm(vi.fn());
    await user.click(emailInput());
    await user.tab();
    expect(emailInput()).not.toHaveAttribute('aria-invalid');
    expect(submitButton()).toBeEnabled();
  });

  it('after an error: every change re-validates, clearing the error and re-enabling submit', async () => {
    const { user } = renderForm(vi.fn());
    await user.type(emailInput(), 'parent@example');
    await user.tab();
    expect(submitButton()).toBeDisabled();
    await user.type(emailInput(), '.co');
    expect(emailInput()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(MESSAGES.invalidEmail)).not.toBeInTheDocument();
    expect(submitButton()).toBeEnabled();
  });

  it('on submit: an empty email shows the message, focuses the field and sends nothing', async () => {
    const submit = vi.fn<Submit>();
    const { user } = renderForm(submit);
    await user.click(submitButton());
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeVisible();
    expect(emailInput()).toHaveFocus();
    expect(emailInput()).toHaveAccessibleDescription(MESSAGES.invalidEmail);
    expect(submit).not.toHaveBeenCalled();
  });

  it('on submit with Enter: an invalid email sends nothing', async () => {
    const submit = vi.fn<Submit>();
    const { user } = renderForm(submit);
    await user.type(emailInput(), 'parent..name@example.com{Enter}');
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(submitButton()).toBeDisabled();
    expect(submit).not.toHaveBeenCalled();
  });
});

describe('WaitlistForm: submitting and joined', () => {
  it('none chosen sends no interest (the default is written on creation) with the trimmed email', async () => {
    const submit = vi.fn<Submit>(async () => ({ success: true }));
    const { user } = renderForm(submit);
    await user.type(emailInput(), '  Parent@Example.com ');
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit).toHaveBeenCalledWith({
      email: 'Parent@Example.com',
      interests: [],
    });
  });

  it('sends the chosen interests, in the cards’ order', async () => {
    const submit = vi.fn<Submit>(async () => ({ success: true }));
    const { user } = renderForm(submit);
    await user.click(card(PARTNER));
    await user.click(card(USE));
    await user.type(emailInput(), 'parent@example.com');
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledWith({ email: 'parent@example.com', interests: ['use', 'partner'] });
  });

  it('idle → submitting (spinner, disabled, announced) → joined (green disabled button, cards locked)', async () => {
    const pending = deferred();
    const submit = vi.fn<Submit>(() => pending.promise);
    const { user } = renderForm(submit);
    await user.click(card(INVEST));
    await user.type(emailInput(), 'investor@example.com');
    await user.click(submitButton());

    expect(submitButton()).toBeDisabled();
    expect(submitButton()).toHaveAttribute('aria-busy', 'true');
    expect(submitButton().querySelector('.form-spinner')).not.toBeNull();
    expect(screen.getByText(SUBMITTING_STATUS_TEXT)).toBeInTheDocument();

    await act(async () => pending.resolve({ success: true }));

    expect(joinedButton()).toBeDisabled();
    expect(joinedButton()).toHaveClass('waitlist-form__joined');
    expect(screen.queryByRole('textbox', { name: WAITLIST_FORM_TEXT.emailLabel })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: WAITLIST_FORM_TEXT.submit })).not.toBeInTheDocument();
    for (const option of WAITLIST_INTEREST_OPTIONS) expect(card(option.label)).toBeDisabled();
    expect(card(INVEST)).toBeChecked();
    // The submit button is gone: focus moves to the confirmation, not to the page's start.
    await waitFor(() => expect(joinedButton().closest('[role="status"]')).toHaveFocus());
    await user.click(card(USE));
    expect(card(USE)).not.toBeChecked();
  });

  it('uses addToWaitlist when no submit is given', async () => {
    const user = userEvent.setup();
    render(<WaitlistForm />);
    await user.type(emailInput(), 'parent@example.com');
    await user.click(submitButton());
    expect(addToWaitlist).toHaveBeenCalledWith({
      email: 'parent@example.com',
      interests: [],
    });
    expect(await screen.findByRole('button', { name: MESSAGES.waitlistJoined })).toBeDisabled();
  });
});

describe('WaitlistForm: failure', () => {
  it('success false → back to idle with the toast, the email and choices kept, the form editable, focus on the button', async () => {
    // Answered once the button shows it is sending (disabled), as a real network answers later.
    let answer: (result: { success: boolean }) => void = () => undefined;
    const submit = vi.fn<Submit>(() => new Promise((resolve) => (answer = resolve)));
    const { user } = renderForm(submit);
    await user.click(card(USE));
    await user.type(emailInput(), 'parent@example.com');
    await user.click(submitButton());
    await waitFor(() => expect(submitButton()).toBeDisabled());
    answer({ success: false });

    expect(await screen.findByText(MESSAGES.genericFailureToast)).toBeInTheDocument();
    // jsdom leaves focus on a button while it is disabled (Chromium moves it to the body):
    // tests/e2e/faults.spec.ts checks the focus comes back in the browser.
    expect(submitButton()).toHaveFocus();
    expect(emailInput()).toHaveValue('parent@example.com');
    expect(emailInput()).toBeEnabled();
    expect(card(USE)).toBeChecked();
    expect(card(USE)).toBeEnabled();
    expect(submitButton()).toBeEnabled();
    expect(screen.queryByRole('button', { name: MESSAGES.waitlistJoined })).not.toBeInTheDocument();

    // Editable: change a choice and try again.
    submit.mockResolvedValueOnce({ success: true });
    await user.click(card(INVEST));
    await user.click(submitButton());
    expect(submit).toHaveBeenLastCalledWith({ email: 'parent@example.com', interests: ['use', 'invest'] });
    expect(await screen.findByRole('button', { name: MESSAGES.waitlistJoined })).toBeDisabled();
  });

  it('a thrown error → the toast, logged to the console, form kept', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = new Error('network down');
    const submit = vi.fn<Submit>(async () => {
      throw failure;
    });
    const { user } = renderForm(submit);
    await user.type(emailInput(), 'parent@example.com');
    await user.click(submitButton());
    expect(await screen.findByText(MESSAGES.genericFailureToast)).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith(expect.any(String), failure);
    expect(emailInput()).toHaveValue('parent@example.com');
    expect(submitButton()).toBeEnabled();
  });
});

describe('WaitlistForm: one submission at a time', () => {
  it('a double click submits once', async () => {
    const pending = deferred();
    const submit = vi.fn<Submit>(() => pending.promise);
    const { user } = renderForm(submit);
    await user.type(emailInput(), 'parent@example.com');
    await user.dblClick(submitButton());
    expect(submit).toHaveBeenCalledTimes(1);
    await act(async () => pending.resolve({ success: true }));
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('Enter pressed twice submits once', async () => {
    const pending = deferred();
    const submit = vi.fn<Submit>(() => pending.promise);
    renderForm(submit);
    fireEvent.change(emailInput(), { target: { value: 'parent@example.com' } });
    const form = screen.getByRole('form');
    // Two submits in the same tick, before React re-renders the button as disabled.
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(submit).toHaveBeenCalledTimes(1);
    await act(async () => pending.resolve({ success: true }));
    expect(joinedButton()).toBeDisabled();
  });
});

describe('WaitlistForm: honeypot', () => {
  it('a filled honeypot sends nothing and looks like success', async () => {
    const submit = vi.fn<Submit>();
    const { user, container } = renderForm(submit);
    const trap = container.querySelector(`input[name="${WAITLIST_FORM.honeypot}"]`) as HTMLInputElement;
    fireEvent.change(trap, { target: { value: 'https://spam.example' } });
    await user.type(emailInput(), 'bot@example.com');
    await user.click(submitButton());
    expect(submit).not.toHaveBeenCalled();
    expect(joinedButton()).toBeDisabled();
  });
});

describe('interestsToSend', () => {
  it('keeps the form order and falls back to the default', () => {
    expect(interestsToSend([])).toEqual([]);
    expect(interestsToSend(['partner', 'invest'])).toEqual(['invest', 'partner']);
  });

  it('in relay mode, states what the visitor agrees to beside the button, with the privacy policy linked; direct mode, which cannot confirm, does not', () => {
    const { unmount } = render(<WaitlistForm submit={vi.fn()} postsNatively />);
    const statement = screen.getByText(WAITLIST_CONSENT_STATEMENT, { exact: false });
    expect(statement.closest('form')).not.toBeNull();
    expect(screen.getByRole('link', { name: WAITLIST_FORM_TEXT.privacyLink })).toHaveAttribute(
      'href',
      '/privacy',
    );
    unmount();
    render(<WaitlistForm submit={vi.fn()} postsNatively={false} />);
    expect(screen.queryByText(WAITLIST_CONSENT_STATEMENT, { exact: false })).toBeNull();
  });
});
