import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { MESSAGES } from '#src/config/messages.ts';
import { QUOTE_FORM_LABELS, QuoteForm } from '#src/features/quote/quote-form.tsx';
import { WAITLIST_FORM_TEXT, WaitlistForm } from '#src/features/waitlist/waitlist-form.tsx';
import { FORMS } from '#src/lib/forms/forms.ts';

/**
 * A visitor quicker than the JavaScript: the prerendered form already holds what the browser
 * autofilled or the visitor typed and ticked when React hydrates it. The form adopts all of it,
 * and the next press submits exactly that.
 */

vi.mock('#src/lib/airtable/preload.ts', () => ({ preloadStorage: () => undefined }));

/** Puts the prerendered HTML of `ui` in the page, lets `visitor` act on it, then hydrates it. */
async function prerenderActThenHydrate(ui: ReactElement, visitor: (root: HTMLElement) => void) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(ui);
  document.body.append(container);
  onTestFinished(() => container.remove());
  visitor(container);
  await act(async () => {
    hydrateRoot(container, ui);
  });
  return container;
}

/** What a browser does when it autofills or a visitor types: the value changes, React is not there yet. */
function typeBeforeHydration(root: HTMLElement, name: string, value: string) {
  const input = root.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (!input) throw new Error(`no input named ${name}`);
  input.value = value;
}

function tickBeforeHydration(root: HTMLElement, name: string, value: string) {
  const box = root.querySelector<HTMLInputElement>(
    `input[type="checkbox"][name="${name}"][value="${value}"]`,
  );
  if (!box) throw new Error(`no ${name} box ${value}`);
  box.checked = true;
}

describe('WaitlistForm over prerendered markup', () => {
  it('relay mode: posts natively before hydration, with its button enabled', () => {
    const html = renderToString(<WaitlistForm submit={vi.fn()} postsNatively />);
    expect(html).toContain(`action="${FORMS.waitlist.path}"`);
    expect(html).toContain('method="post"');
    expect(html).not.toMatch(/<button type="submit"[^>]*disabled/);
    expect(html).toMatch(/name="interests"/);
    expect(html).toMatch(/name="company_website"/);
  });

  it.each([
    ['relay', true],
    ['direct', false],
  ])(
    '%s mode: adopts the autofilled email and ticked interests, and submits exactly them',
    async (_, postsNatively) => {
      const submit = vi.fn(async () => ({ success: true }));
      const ui = <WaitlistForm submit={submit} postsNatively={postsNatively} />;
      const root = await prerenderActThenHydrate(ui, (form) => {
        typeBeforeHydration(form, 'email', 'parent@example.com');
        tickBeforeHydration(form, 'interests', 'invest');
      });
      const user = userEvent.setup();
      const view = within(root);
      // A later render (another card ticked) keeps what the browser held.
      await user.click(view.getByRole('checkbox', { name: 'Use Podling' }));
      expect(view.getByRole('textbox', { name: WAITLIST_FORM_TEXT.emailLabel })).toHaveValue(
        'parent@example.com',
      );
      expect(view.getByRole('checkbox', { name: 'Invest in Podling' })).toBeChecked();

      await user.click(view.getByRole('button', { name: WAITLIST_FORM_TEXT.submit }));
      await view.findByRole('button', { name: MESSAGES.waitlistJoined });
      expect(submit).toHaveBeenCalledTimes(1);
      expect(submit).toHaveBeenCalledWith({
        email: 'parent@example.com',
        interests: ['use', 'invest'],
      });
    },
  );

  it('an email typed before hydration is validated as typed, not as empty', async () => {
    const submit = vi.fn(async () => ({ success: true }));
    const ui = <WaitlistForm submit={submit} postsNatively />;
    const root = await prerenderActThenHydrate(ui, (form) =>
      typeBeforeHydration(form, 'email', 'parent@example'),
    );
    const user = userEvent.setup();
    const view = within(root);
    await user.click(view.getByRole('button', { name: WAITLIST_FORM_TEXT.submit }));
    const email = view.getByRole('textbox', { name: WAITLIST_FORM_TEXT.emailLabel });
    expect(email).toHaveValue('parent@example');
    expect(email).toHaveAccessibleDescription(MESSAGES.invalidEmail);
    expect(submit).not.toHaveBeenCalled();
  });
});

describe('QuoteForm over prerendered markup', () => {
  it('relay mode: posts natively before hydration, with its button enabled and the Other box in the markup', () => {
    const html = renderToString(<QuoteForm submit={vi.fn()} postsNatively />);
    expect(html).toContain(`action="${FORMS.quote.path}"`);
    expect(html).toContain('method="post"');
    expect(html).not.toMatch(/<button type="submit"[^>]*disabled/);
    for (const name of [
      'contactName',
      'email',
      'schoolName',
      'role',
      'useCases',
      'otherUseCase',
      'company_website',
    ]) {
      expect(html).toContain(`name="${name}"`);
    }
    // Every card's native value is its label, 'Other' included.
    expect(html).toContain('name="useCases" value="other"');
  });

  it.each([
    ['relay', true],
    ['direct', false],
  ])(
    '%s mode: adopts every field, ticked card and the Other text, and submits exactly them',
    async (_, postsNatively) => {
      const submit = vi.fn(async () => ({ success: true as const }));
      const ui = <QuoteForm submit={submit} postsNatively={postsNatively} />;
      const root = await prerenderActThenHydrate(ui, (form) => {
        typeBeforeHydration(form, 'contactName', 'Priya Shah');
        typeBeforeHydration(form, 'email', 'head@oakfield.sch.uk');
        typeBeforeHydration(form, 'schoolName', 'Oakfield Primary');
        typeBeforeHydration(form, 'role', 'Head Teacher');
        tickBeforeHydration(form, 'useCases', 'practice-speaking');
        tickBeforeHydration(form, 'useCases', 'other');
        typeBeforeHydration(form, 'otherUseCase', 'Assemblies');
      });
      const user = userEvent.setup();
      const view = within(root);
      expect(view.getByRole('textbox', { name: QUOTE_FORM_LABELS.otherUseCase })).toHaveValue('Assemblies');
      await user.click(view.getByRole('checkbox', { name: 'Support Learners' }));
      expect(view.getByRole('textbox', { name: QUOTE_FORM_LABELS.name })).toHaveValue('Priya Shah');
      expect(view.getByRole('textbox', { name: QUOTE_FORM_LABELS.role })).toHaveValue('Head Teacher');

      await user.click(view.getByRole('button', { name: QUOTE_FORM_LABELS.submit }));
      await view.findByRole('heading', { name: MESSAGES.quoteThankYouTitle });
      expect(submit).toHaveBeenCalledWith({
        email: 'head@oakfield.sch.uk',
        contactName: 'Priya Shah',
        schoolName: 'Oakfield Primary',
        role: 'Head Teacher',
        useCases: ['support-learners', 'practice-speaking', 'other'],
        otherUseCase: 'Assemblies',
      });
    },
  );

  it('once hydrated, the Other box exists only while Other is chosen (its text kept)', async () => {
    const ui = <QuoteForm submit={vi.fn()} postsNatively />;
    const root = await prerenderActThenHydrate(ui, (form) =>
      typeBeforeHydration(form, 'otherUseCase', 'Clubs'),
    );
    const view = within(root);
    expect(view.queryByRole('textbox', { name: QUOTE_FORM_LABELS.otherUseCase })).not.toBeInTheDocument();
    await userEvent.setup().click(view.getByRole('checkbox', { name: 'Other' }));
    expect(view.getByRole('textbox', { name: QUOTE_FORM_LABELS.otherUseCase })).toHaveValue('Clubs');
    expect(screen.getAllByRole('checkbox', { name: 'Other' })).toHaveLength(1);
  });
});
