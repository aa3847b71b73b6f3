import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '#src/config/messages.ts';
import { QuoteForm, type QuoteFormProps } from '#src/features/quote/quote-form.tsx';
import { submitQuoteRequest, type SubmitResult } from '#src/lib/forms/send-form.ts';
import type { QuotePosted } from '#src/lib/forms/forms.ts';

vi.mock('#src/lib/forms/send-form.ts', async (original) => ({
  ...(await original<object>()),
  submitQuoteRequest: vi.fn(async () => ({ success: true })),
}));

type Submit = NonNullable<QuoteFormProps['submit']>;

afterEach(() => {
  act(() => toast.remove());
});

function renderForm(submit?: Submit) {
  const user = userEvent.setup();
  const view = render(
    <>
      <QuoteForm submit={submit} />
      <Toaster />
    </>,
  );
  return { user, ...view };
}

function deferred() {
  let resolve!: (value: SubmitResult) => void;
  const promise = new Promise<SubmitResult>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const field = (name: string) => screen.getByRole('textbox', { name });
const emailInput = () => field('Email Address');
const submitButton = () => screen.getByRole('button', { name: 'Request a Quote' });
const card = (name: string) => screen.getByRole('checkbox', { name });

async function fillRequired(user: ReturnType<typeof userEvent.setup>, email = 'head@oakfield.sch.uk') {
  await user.type(field('Your Name'), 'Priya Shah');
  await user.type(emailInput(), email);
  await user.type(field('School/Institution Name'), 'Oakfield Primary');
  await user.type(field('Role'), 'Deputy Head');
}

describe('QuoteForm — idle', () => {
  it('shows the four fields, marked required in the markup, in a form the browser does not validate', () => {
    renderForm(vi.fn<Submit>());
    for (const name of ['Your Name', 'Email Address', 'School/Institution Name', 'Role']) {
      expect(field(name)).toBeRequired();
    }
    expect(emailInput()).toHaveAttribute('type', 'email');
    expect(submitButton().closest('form')).toHaveAttribute('novalidate');
    expect(submitButton()).toBeEnabled();
  });

  it('offers the use cases as checkboxes that toggle on and off', async () => {
    const { user } = renderForm(vi.fn<Submit>());
    const group = screen.getByRole('group', { name: /How would you like to use/ });
    expect(
      within(group)
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('value')),
    ).toEqual(['support-learners', 'practice-speaking', 'showcase-creativity', 'other']);
    await user.click(card('Practice Speaking'));
    expect(card('Practice Speaking')).toBeChecked();
    await user.click(card('Practice Speaking'));
    expect(card('Practice Speaking')).not.toBeChecked();
    // Keyboard: Space toggles the focused card.
    card('Support Learners').focus();
    await user.keyboard(' ');
    expect(card('Support Learners')).toBeChecked();
  });

  it("reveals the 'Other' text box only while 'Other' is ticked, keeping its text", async () => {
    const { user } = renderForm(vi.fn<Submit>());
    expect(screen.queryByRole('textbox', { name: 'Tell us how you would use it' })).toBeNull();
    await user.click(card('Other'));
    await user.type(field('Tell us how you would use it'), 'Assemblies');
    await user.click(card('Other'));
    expect(screen.queryByRole('textbox', { name: 'Tell us how you would use it' })).toBeNull();
    await user.click(card('Other'));
    expect(field('Tell us how you would use it')).toHaveValue('Assemblies');
  });
});

describe('QuoteForm — email validation', () => {
  it('shows no message while typing a first attempt, then checks on blur', async () => {
    const { user } = renderForm(vi.fn<Submit>());
    await user.type(emailInput(), 'head@oakfield');
    expect(screen.queryByText(MESSAGES.invalidEmail)).toBeNull();
    expect(emailInput()).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeVisible();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
  });

  it('ties the message to the field for screen readers', async () => {
    const { user } = renderForm(vi.fn<Submit>());
    await user.type(emailInput(), 'not-an-email');
    await user.tab();
    const message = screen.getByText(MESSAGES.invalidEmail);
    expect(emailInput().getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(emailInput()).toHaveAccessibleDescription(MESSAGES.invalidEmail);
  });

  it('re-checks on each change once the message shows, and clears it when fixed', async () => {
    const { user } = renderForm(vi.fn<Submit>());
    await user.type(emailInput(), 'head@oakfield');
    await user.tab();
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeVisible();
    await user.type(emailInput(), '.sch.uk');
    expect(screen.queryByText(MESSAGES.invalidEmail)).toBeNull();
    expect(emailInput()).not.toHaveAttribute('aria-invalid');
    expect(emailInput()).not.toHaveAttribute('aria-describedby');
    // Fixed: back to checking on blur.
    await user.type(emailInput(), '..');
    await user.tab();
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeVisible();
  });

  it('uses the spec rule (length bounds) rather than the browser', async () => {
    const { user } = renderForm(vi.fn<Submit>());
    await user.type(emailInput(), 'a@b.');
    await user.tab();
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeVisible();
    await user.clear(emailInput());
    await user.type(emailInput(), 'a@b.c');
    expect(screen.queryByText(MESSAGES.invalidEmail)).toBeNull();
  });

  it('checks on submit: an invalid or empty email sends nothing and moves focus to the field', async () => {
    const submit = vi.fn<Submit>();
    const { user } = renderForm(submit);
    await user.click(submitButton());
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeVisible();
    expect(emailInput()).toHaveFocus();
    await user.type(emailInput(), 'x@y');
    await user.click(submitButton());
    expect(submit).not.toHaveBeenCalled();
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeVisible();
  });

  it('checks nothing but the email: other fields may be empty', async () => {
    const submit = vi.fn<Submit>(async () => ({ success: true }));
    const { user } = renderForm(submit);
    await user.type(emailInput(), 'office@oakfield.sch.uk');
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledWith({
      email: 'office@oakfield.sch.uk',
      contactName: '',
      schoolName: '',
      role: '',
      useCases: [],
      otherUseCase: '',
    });
  });
});

describe('QuoteForm — submitting', () => {
  it('sends every field by its post name, as the native post does: use cases as ids, the Other text as typed', async () => {
    const submit = vi.fn<Submit>(async () => ({ success: true }));
    const { user } = renderForm(submit);
    await fillRequired(user);
    await user.click(card('Showcase Creativity'));
    await user.click(card('Support Learners'));
    await user.click(card('Other'));
    await user.type(field('Tell us how you would use it'), '  Weekly radio show  ');
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit.mock.calls[0]?.[0]).toEqual<QuotePosted>({
      email: 'head@oakfield.sch.uk',
      contactName: 'Priya Shah',
      schoolName: 'Oakfield Primary',
      role: 'Deputy Head',
      useCases: ['support-learners', 'showcase-creativity', 'other'],
      otherUseCase: '  Weekly radio show  ',
    });
  });

  it('shows a spinner, disables the button and announces the state while sending', async () => {
    const pending = deferred();
    const { user } = renderForm(vi.fn<Submit>(() => pending.promise));
    await fillRequired(user);
    await user.click(submitButton());
    expect(submitButton()).toBeDisabled();
    expect(submitButton()).toHaveAttribute('aria-busy', 'true');
    expect(submitButton().querySelector('.form-spinner')).not.toBeNull();
    expect(screen.getByText('Sending your request…')).toHaveAttribute('role', 'status');
    await act(async () => pending.resolve({ success: true }));
    expect(await screen.findByRole('heading', { name: MESSAGES.quoteThankYouTitle })).toBeVisible();
  });

  it('submits once on a double click', async () => {
    const pending = deferred();
    const submit = vi.fn<Submit>(() => pending.promise);
    const { user } = renderForm(submit);
    await fillRequired(user);
    await user.dblClick(submitButton());
    expect(submit).toHaveBeenCalledTimes(1);
    await act(async () => pending.resolve({ success: true }));
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('submits once when the form is submitted twice in the same tick', async () => {
    const submit = vi.fn<Submit>(async () => ({ success: true }));
    const { user } = renderForm(submit);
    await fillRequired(user);
    const form = submitButton().closest('form') as HTMLFormElement;
    act(() => {
      fireEvent.submit(form);
      fireEvent.submit(form);
    });
    await screen.findByRole('heading', { name: MESSAGES.quoteThankYouTitle });
    expect(submit).toHaveBeenCalledTimes(1);
  });
});

describe('QuoteForm — submitted', () => {
  it('replaces the form with the thank-you, focuses its heading, toasts and locks the cards', async () => {
    const { user } = renderForm(vi.fn<Submit>(async () => ({ success: true })));
    await fillRequired(user);
    await user.click(card('Practice Speaking'));
    await user.click(submitButton());

    const heading = await screen.findByRole('heading', { name: MESSAGES.quoteThankYouTitle });
    expect(heading).toHaveFocus();
    expect(screen.getByText(MESSAGES.quoteThankYouBody)).toBeVisible();
    expect(await screen.findByText(MESSAGES.quoteSuccessToast)).toBeInTheDocument();

    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Request a Quote' })).toBeNull();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(4);
    for (const box of boxes) expect(box).toBeDisabled();
    expect(card('Practice Speaking')).toBeChecked();
    await user.click(card('Practice Speaking'));
    await user.click(card('Support Learners'));
    expect(card('Practice Speaking')).toBeChecked();
    expect(card('Support Learners')).not.toBeChecked();
  });

  it('with the honeypot filled, sends nothing but looks like a success', async () => {
    const submit = vi.fn<Submit>();
    const { user, container } = renderForm(submit);
    await fillRequired(user);
    const trap = container.querySelector<HTMLInputElement>('input[name="company_website"]');
    expect(trap).not.toBeNull();
    fireEvent.change(trap as HTMLInputElement, { target: { value: 'http://spam.example' } });
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: MESSAGES.quoteThankYouTitle })).toBeVisible();
    expect(await screen.findByText(MESSAGES.quoteSuccessToast)).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
  });
});

describe('QuoteForm — failure', () => {
  it('goes back to idle with the failure toast and every value kept', async () => {
    // Answered once the button shows it is sending (disabled), as a real network answers later.
    let answer: (result: { success: boolean }) => void = () => undefined;
    const submit = vi.fn<Submit>(() => new Promise((resolve) => (answer = resolve)));
    const { user } = renderForm(submit);
    await fillRequired(user);
    await user.click(card('Support Learners'));
    await user.click(card('Other'));
    await user.type(field('Tell us how you would use it'), 'Assemblies');
    await user.click(submitButton());
    await waitFor(() => expect(submitButton()).toBeDisabled());
    answer({ success: false });

    expect(await screen.findByText(MESSAGES.genericFailureToast)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: MESSAGES.quoteThankYouTitle })).toBeNull();
    expect(field('Your Name')).toHaveValue('Priya Shah');
    expect(emailInput()).toHaveValue('head@oakfield.sch.uk');
    expect(field('School/Institution Name')).toHaveValue('Oakfield Primary');
    expect(field('Role')).toHaveValue('Deputy Head');
    expect(card('Support Learners')).toBeChecked();
    expect(card('Other')).toBeChecked();
    expect(field('Tell us how you would use it')).toHaveValue('Assemblies');
    expect(submitButton()).toBeEnabled();
    expect(submitButton()).toHaveFocus();
    expect(screen.queryByText('Sending your request…')).toBeNull();

    // Still editable, and a second try goes through.
    await user.click(card('Support Learners'));
    expect(card('Support Learners')).not.toBeChecked();
    submit.mockResolvedValueOnce({ success: true });
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: MESSAGES.quoteThankYouTitle })).toBeVisible();
    expect(submit).toHaveBeenCalledTimes(2);
  });

  it('treats a submit that throws as a failure, logging it', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderForm(vi.fn<Submit>(async () => Promise.reject(new Error('network down'))));
    await fillRequired(user);
    await user.click(submitButton());
    expect(await screen.findByText(MESSAGES.genericFailureToast)).toBeInTheDocument();
    await waitFor(() => expect(submitButton()).toBeEnabled());
    expect(consoleError).toHaveBeenCalled();
    expect(field('Your Name')).toHaveValue('Priya Shah');
  });
});

describe('QuoteForm — defaults and rendering', () => {
  it('submits through submitQuoteRequest when no submit is given', async () => {
    const { user } = renderForm();
    await fillRequired(user, 'Head@Oakfield.sch.uk');
    await user.click(submitButton());
    await screen.findByRole('heading', { name: MESSAGES.quoteThankYouTitle });
    expect(submitQuoteRequest).toHaveBeenCalledTimes(1);
    expect(vi.mocked(submitQuoteRequest).mock.calls[0]?.[0]).toMatchObject({
      email: 'Head@Oakfield.sch.uk',
      contactName: 'Priya Shah',
    });
  });

  it('renders on the server without window, in the idle state', () => {
    const html = renderToString(<QuoteForm />);
    expect(html).toContain('Your Name');
    expect(html).toContain('Request a Quote');
    expect(html).not.toContain(MESSAGES.invalidEmail);
  });
});
