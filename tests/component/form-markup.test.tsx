import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { QuoteForm } from '#src/features/quote/quote-form.tsx';
import { WaitlistForm } from '#src/features/waitlist/waitlist-form.tsx';
import { postedFields } from '#src/lib/forms/contract.ts';
import { QUOTE_FORM, WAITLIST_FORM } from '#src/lib/forms/forms.ts';

vi.mock('#src/lib/airtable/preload.ts', () => ({ preloadStorage: () => undefined }));

function render(ui: ReactElement): { container: HTMLElement } {
  const container = document.createElement('div');
  container.innerHTML = renderToString(ui);
  return { container };
}

/**
 * The prerendered markup (what posts before hydration and without JavaScript) carries the contract: every posted field has an input by its post name and label,
 * every option a checkbox by its id, the honeypot its trap, and the form posts to its door. A
 * field added to a contract without its markup fails here by name.
 */
describe.each([
  ['waitlist', WAITLIST_FORM, () => <WaitlistForm submit={vi.fn()} postsNatively />],
  ['quote', QUOTE_FORM, () => <QuoteForm submit={vi.fn()} postsNatively />],
] as const)('the %s form', (_name, contract, ui) => {
  it('posts to its door', () => {
    const { container } = render(ui());
    expect(container.querySelector('form')?.getAttribute('action')).toBe(contract.path);
  });

  it.each(postedFields(contract).map(([key, field]) => [key, field] as const))(
    'has an input for %s, by its post name and label',
    (_key, field) => {
      const { container } = render(ui());
      const inputs = [...container.querySelectorAll<HTMLInputElement>(`[name="${field.post}"]`)];
      expect(inputs.length, `no input named "${field.post}"`).toBeGreaterThan(0);
      if (field.type === 'multipleSelects') {
        expect(inputs.map((input) => input.value)).toEqual(field.options.map((option) => option.id));
        expect(container.textContent).toContain(field.label);
        for (const option of field.options) expect(container.textContent).toContain(option.label);
      } else {
        expect(inputs).toHaveLength(1);
        const label = container.querySelector(`label[for="${inputs[0]?.id}"]`)?.textContent ?? '';
        expect(label).toContain(field.label);
      }
    },
  );

  it('has the honeypot', () => {
    const { container } = render(ui());
    expect(container.querySelector(`input[name="${contract.honeypot}"]`)).not.toBeNull();
  });
});
