import { FORM_HONEYPOT } from '#src/lib/forms/contract.ts';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { EMAIL_INPUT, Field } from '#src/components/form/field.tsx';
import { HoneypotField, isHoneypotFilled } from '#src/components/form/honeypot-field.tsx';
import {
  FORM_NOT_READY_TEXT,
  SUBMITTING_STATUS_TEXT,
  SubmitButton,
} from '#src/components/form/submit-button.tsx';
import { ToggleCard } from '#src/components/form/toggle-card.tsx';
import { useEmailField } from '#src/components/form/use-email-field.ts';
import { MESSAGES } from '#src/config/messages.ts';
import { CONTACT_EMAIL, LINKS } from '#src/config/site.ts';
import { isValidEmail } from '#src/lib/email.ts';

function EmailHarness({ onSubmit }: { onSubmit?: (valid: boolean) => void }) {
  const email = useEmailField({ isValid: isValidEmail, message: MESSAGES.invalidEmail });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit?.(email.validate());
      }}
    >
      <Field
        {...EMAIL_INPUT}
        id="test-email"
        label="Email"
        hint="We never share it."
        value={email.value}
        error={email.error}
        onChange={email.onChange}
        onBlur={email.onBlur}
      />
      <button type="submit">Send</button>
      <button type="button">Elsewhere</button>
    </form>
  );
}

describe('Field as an email field, with useEmailField', () => {
  it('is a labelled, required email input with autocomplete, described by its hint', () => {
    render(<EmailHarness />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('autocomplete', 'email');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).toHaveAccessibleDescription('We never share it.');
  });

  it('does not flag an empty field on blur, but flags an invalid one', async () => {
    const user = userEvent.setup();
    render(<EmailHarness />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    await user.click(input);
    await user.tab();
    expect(input).not.toHaveAttribute('aria-invalid');
    await user.type(input, 'not-an-email');
    await user.tab();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(`We never share it. ${MESSAGES.invalidEmail}`);
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeVisible();
  });

  it('does not nag while typing a first attempt, then re-checks on every change once an error shows', async () => {
    const user = userEvent.setup();
    render(<EmailHarness />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    await user.type(input, 'a@b');
    expect(input).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.type(input, '.co');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(MESSAGES.invalidEmail)).not.toBeInTheDocument();
  });

  it('validate() on submit flags an empty value and reports the outcome', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<EmailHarness onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenLastCalledWith(false);
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ok@example.org');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenLastCalledWith(true);
  });

  it('renders on the server without touching the DOM', () => {
    const html = renderToString(<EmailHarness />);
    expect(html).toContain('type="email"');
    expect(html).toMatch(/autocomplete="email"/i);
  });
});

describe('Field', () => {
  it('takes any input type and passes its attributes through, named by its label', () => {
    render(
      <Field id="phone" label="Phone number" type="tel" name="phone" autoComplete="tel" defaultValue="" />,
    );
    const input = screen.getByRole('textbox', { name: 'Phone number' });
    expect(input).toHaveAttribute('type', 'tel');
    expect(input).toHaveAttribute('name', 'phone');
    expect(input).toHaveAttribute('autocomplete', 'tel');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it('is a text input by default', () => {
    render(<Field id="name" label="Your Name" defaultValue="" />);
    expect(screen.getByRole('textbox', { name: 'Your Name' })).toHaveAttribute('type', 'text');
  });

  it('wires an error: aria-invalid, described by hint then message, announced politely', () => {
    render(
      <Field id="code" label="School code" hint="Six letters" error="Enter six letters" defaultValue="" />,
    );
    const input = screen.getByRole('textbox', { name: 'School code' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Six letters Enter six letters');
    expect(screen.getByText('Enter six letters').closest('[aria-live]')).toHaveAttribute(
      'aria-live',
      'polite',
    );
  });
});

describe('useEmailField', () => {
  it('takes any validator and message', () => {
    const { result } = renderHook(() =>
      useEmailField({ isValid: (value) => value.endsWith('.sch.uk'), message: 'Use a school address' }),
    );
    act(() => result.current.setValue('head@example.com'));
    let passed = true;
    act(() => {
      passed = result.current.validate();
    });
    expect(passed).toBe(false);
    expect(result.current.error).toBe('Use a school address');
  });
});

function CardHarness({ disabled = false }: { disabled?: boolean }) {
  const [checked, setChecked] = useState(false);
  return (
    <ToggleCard
      label="Use Podling"
      description="Early access for my child"
      value="Use Podling"
      name="interests"
      checked={checked}
      onCheckedChange={setChecked}
      disabled={disabled}
    />
  );
}

describe('ToggleCard', () => {
  it('is a real checkbox named by its label and described by its description', () => {
    render(<CardHarness />);
    const box = screen.getByRole('checkbox', { name: 'Use Podling' });
    expect(box).toHaveAccessibleDescription('Early access for my child');
    expect(box).toHaveAttribute('value', 'Use Podling');
    expect(box).not.toBeChecked();
  });

  it('toggles by click anywhere on the card and by Space, showing a selected class', async () => {
    const user = userEvent.setup();
    render(<CardHarness />);
    const box = screen.getByRole('checkbox', { name: 'Use Podling' });
    await user.click(screen.getByText('Early access for my child'));
    expect(box).toBeChecked();
    expect(box.closest('label')).toHaveClass('form-toggle-card--selected');
    box.focus();
    await user.keyboard(' ');
    expect(box).not.toBeChecked();
    expect(box.closest('label')).not.toHaveClass('form-toggle-card--selected');
  });

  it('cannot be toggled when disabled', async () => {
    const user = userEvent.setup();
    render(<CardHarness disabled />);
    const box = screen.getByRole('checkbox', { name: 'Use Podling' });
    expect(box).toBeDisabled();
    await user.click(screen.getByText('Use Podling'));
    expect(box).not.toBeChecked();
  });
});

describe('SubmitButton', () => {
  /** Prerenders `form`, mounts its HTML and hydrates it, as a built page is taken over. */
  async function prerenderThenHydrate(form: ReactElement) {
    const html = renderToString(form);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const beforeHydration = container.querySelector('button') as HTMLButtonElement;
    const state = {
      html,
      disabledBefore: beforeHydration.disabled,
      describedByBefore: beforeHydration.getAttribute('aria-describedby'),
      noteBefore: container.querySelector('.form-not-ready')?.textContent ?? null,
      noteIdBefore: container.querySelector('.form-not-ready')?.id ?? null,
    };
    await act(async () => {
      hydrateRoot(container, form);
    });
    onTestFinished(() => container.remove());
    return { ...state, container };
  }

  it('is enabled in the prerendered HTML when the form posts natively (relay mode)', async () => {
    const { html, disabledBefore, noteBefore, container } = await prerenderThenHydrate(
      <form method="post" action="/api/forms/waitlist">
        <SubmitButton submitting={false} postsNatively>
          Join
        </SubmitButton>
      </form>,
    );
    expect(html).not.toMatch(/<button[^>]*disabled=""/);
    expect(disabledBefore).toBe(false);
    expect(noteBefore).toBeNull();
    expect(container.querySelector('button')).toBeEnabled();
  });

  it('waits for hydration when the form cannot post natively (direct mode), and says why meanwhile', async () => {
    const { html, disabledBefore, describedByBefore, noteBefore, noteIdBefore, container } =
      await prerenderThenHydrate(
        <form>
          <SubmitButton submitting={false} postsNatively={false}>
            Join
          </SubmitButton>
        </form>,
      );
    expect(html).toMatch(/<button[^>]*disabled=""/);
    expect(disabledBefore).toBe(true);
    // The sign: a note tied to the button, with another way to reach us.
    expect(noteBefore).toContain(FORM_NOT_READY_TEXT.before);
    expect(noteBefore).toContain(CONTACT_EMAIL);
    expect(noteIdBefore).toBeTruthy();
    expect(describedByBefore).toBe(noteIdBefore);
    expect(html).toContain(`href="${LINKS.contactMailto}"`);
    // Hydrated: the button works and the note is gone.
    expect(container.querySelector('button')).toBeEnabled();
    expect(container.querySelector('button')).not.toHaveAttribute('aria-describedby');
    expect(container.querySelector('.form-not-ready')).toBeNull();
  });

  it('is enabled and silent when idle', () => {
    render(
      <SubmitButton submitting={false} postsNatively>
        Join
      </SubmitButton>,
    );
    expect(screen.getByRole('button', { name: 'Join' })).toBeEnabled();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('is disabled and announces submitting while submitting', () => {
    render(
      <SubmitButton submitting postsNatively>
        Join
      </SubmitButton>,
    );
    expect(screen.getByRole('button', { name: 'Join' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(SUBMITTING_STATUS_TEXT);
  });

  it('is disabled when told so for another reason', () => {
    render(
      <SubmitButton submitting={false} disabled postsNatively>
        Join
      </SubmitButton>,
    );
    expect(screen.getByRole('button', { name: 'Join' })).toBeDisabled();
  });
});

describe('HoneypotField', () => {
  it('is hidden from assistive technology and the keyboard', async () => {
    const user = userEvent.setup();
    const { container } = render(
      <form>
        <input aria-label="Before" />
        <HoneypotField name={FORM_HONEYPOT} />
        <button type="submit">After</button>
      </form>,
    );
    const trap = container.querySelector(`input[name="${FORM_HONEYPOT}"]`) as HTMLInputElement;
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap).toHaveAttribute('autocomplete', 'off');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('textbox', { name: /leave this field empty/i })).toBeNull();
    screen.getByRole('textbox', { name: 'Before' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'After' })).toHaveFocus();
  });

  it('isHoneypotFilled tells a bot from a person', () => {
    const { container } = render(
      <form>
        <HoneypotField name={FORM_HONEYPOT} />
      </form>,
    );
    const form = container.querySelector('form') as HTMLFormElement;
    expect(isHoneypotFilled(form, FORM_HONEYPOT)).toBe(false);
    fireEvent.change(form.elements.namedItem(FORM_HONEYPOT) as HTMLInputElement, {
      target: { value: 'https://spam.example' },
    });
    expect(isHoneypotFilled(form, FORM_HONEYPOT)).toBe(true);
  });
});
