// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { ERROR_SUMMARY_TITLE } from '#src/components/form/form-answer.tsx';
import { MESSAGES } from '#src/config/messages.ts';
import { renderFormTemplate } from '#src/entry-server.tsx';
import { FORMS, type FormName } from '#src/lib/forms/forms.ts';
import { escapeHtml, type FormAnswerOutcome } from '#src/lib/page-templates.ts';
import { formTemplatePath, renderFormAnswer } from '#src/server/doors/form-answer.ts';
import type { Posted } from '#src/lib/forms/submission.ts';

/**
 * The server's answer pages for native posts, filled from each form's template as the build
 * renders it (src/entry-server.tsx; the build wraps the same head and body in index.html).
 */

function template(form: FormName): string {
  const { head, html } = renderFormTemplate(form);
  return `<!doctype html><html lang="en-GB"><head>${head}</head><body><div id="root">${html}</div></body></html>`;
}

function answer(form: FormName, outcome: FormAnswerOutcome, values: Posted = {}) {
  const html = renderFormAnswer(template(form), form, outcome, values);
  return { html, document: new DOMParser().parseFromString(html, 'text/html') };
}

const QUOTE_VALUES: Posted = {
  contactName: 'Priya Shah',
  email: 'head@oakfield',
  schoolName: 'Oakfield Primary',
  role: 'Head Teacher',
  useCases: ['support-learners', 'other'],
  otherUseCase: 'Assemblies',
  company_website: '',
};

const input = (document: Document, selector: string) => {
  const element = document.querySelector<HTMLInputElement>(selector);
  if (!element) throw new Error(`no ${selector}`);
  return element;
};

const checkedValues = (document: Document, name: string) =>
  [...document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="${name}"]`)]
    .filter((box) => box.checked)
    .map((box) => box.value);

/** What every filled page must be: no marker left, no script, noindex. */
function expectCleanPage(html: string, document: Document) {
  expect(html).not.toContain('data-form-answer');
  expect(html).not.toContain('%%form-answer');
  expect(document.querySelector('script')).toBeNull();
  expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
}

describe('formTemplatePath', () => {
  it('puts each form under /__forms/', () => {
    expect(formTemplatePath('waitlist')).toBe('/__forms/waitlist.html');
    expect(formTemplatePath('quote')).toBe('/__forms/quote.html');
  });
});

describe('renderFormAnswer: confirmed', () => {
  it('waitlist: the spec’s confirmation, focused, with a link back to the form, and no form', () => {
    const { html, document } = answer('waitlist', 'confirmed', { email: 'parent@example.com' });
    expectCleanPage(html, document);
    const title = document.querySelector('h2[autofocus]');
    expect(title?.textContent).toBe(MESSAGES.waitlistJoined);
    expect(document.querySelector('a[href="/#waitlist"]')).not.toBeNull();
    expect(document.querySelector('form')).toBeNull();
    expect(document.querySelector('[role="alert"]')).toBeNull();
    expect(document.title).not.toMatch(/^Error/);
    // The header and footer frame the answer as on every page.
    expect(document.querySelector('header.site-header')).not.toBeNull();
    expect(document.querySelector('footer')).not.toBeNull();
  });

  it('quote: Thank You! and the spec’s body, with a link back to the form on /schools', () => {
    const { html, document } = answer('quote', 'confirmed', QUOTE_VALUES);
    expectCleanPage(html, document);
    expect(document.querySelector('h2[autofocus]')?.textContent).toBe(MESSAGES.quoteThankYouTitle);
    expect(document.body.textContent).toContain(MESSAGES.quoteThankYouBody);
    expect(document.querySelector('a[href="/schools#get-a-quote"]')).not.toBeNull();
    expect(document.querySelector('form')).toBeNull();
    expect(html).not.toContain('Priya Shah');
  });
});

describe('renderFormAnswer: invalid email', () => {
  it('quote: an error summary linking to the field, the message at the field, every value kept', () => {
    const { html, document } = answer('quote', 'invalid-email', QUOTE_VALUES);
    expectCleanPage(html, document);
    expect(document.title).toMatch(/^Error: Get a Quote/);

    const summaries = document.querySelectorAll('[role="alert"]');
    expect(summaries).toHaveLength(1);
    const summary = summaries[0] as Element;
    expect(summary.querySelector('h2')?.textContent).toBe(ERROR_SUMMARY_TITLE);
    const link = summary.querySelector('a');
    expect(link?.getAttribute('href')).toBe('#quote-email');
    expect(link?.textContent).toBe(MESSAGES.invalidEmail);
    expect(summary.closest('[autofocus]')).not.toBeNull();
    // The summary comes before the page's heading (GOV.UK).
    const heading = document.querySelector('h1') as Element;
    expect(summary.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    expect(document.querySelectorAll('#quote-email')).toHaveLength(1);
    const email = input(document, '#quote-email');
    expect(email.value).toBe('head@oakfield');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(email.getAttribute('aria-describedby') ?? '');
    expect(message?.textContent).toBe(MESSAGES.invalidEmail);

    expect(input(document, '[name="contactName"]').value).toBe('Priya Shah');
    expect(input(document, '[name="schoolName"]').value).toBe('Oakfield Primary');
    expect(input(document, '[name="role"]').value).toBe('Head Teacher');
    expect(input(document, '[name="otherUseCase"]').value).toBe('Assemblies');
    expect(checkedValues(document, 'useCases')).toEqual(['support-learners', 'other']);
    // The bot trap is never filled back in.
    expect(input(document, '[name="company_website"]').value).toBe('');
  });

  it('posts natively again: method, action and an enabled button', () => {
    const { document } = answer('waitlist', 'invalid-email', { email: 'x', interests: [] });
    const form = document.querySelector('form') as HTMLFormElement;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe(FORMS.waitlist.path);
    const button = form.querySelector('button[type="submit"]') as HTMLButtonElement;
    expect(button.disabled).toBe(false);
  });

  it('waitlist: keeps the email and the chosen interests', () => {
    const { html, document } = answer('waitlist', 'invalid-email', {
      email: 'parent@',
      interests: ['invest'],
    });
    expectCleanPage(html, document);
    const email = input(document, '#waitlist-email');
    expect(email.value).toBe('parent@');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.querySelector('[role="alert"] a')?.getAttribute('href')).toBe('#waitlist-email');
    expect(checkedValues(document, 'interests')).toEqual(['invest']);
  });
});

describe('renderFormAnswer: failure', () => {
  it('says the spec’s failure message in the summary and keeps every value, the email not in error', () => {
    const { html, document } = answer('waitlist', 'failure', {
      email: 'parent@example.com',
      interests: ['use', 'partner'],
    });
    expectCleanPage(html, document);
    expect(document.title).toMatch(/^Error: /);
    const summary = document.querySelector('[role="alert"]');
    expect(summary?.querySelector('h2')?.textContent).toBe(ERROR_SUMMARY_TITLE);
    expect(summary?.textContent).toContain(MESSAGES.genericFailureToast);
    const email = input(document, '#waitlist-email');
    expect(email.value).toBe('parent@example.com');
    expect(email.hasAttribute('aria-invalid')).toBe(false);
    expect(html).not.toContain(`>${MESSAGES.invalidEmail}<`);
    expect(checkedValues(document, 'interests')).toEqual(['use', 'partner']);
  });

  it('quote: every value kept, a single value or a list alike', () => {
    const { document } = answer('quote', 'failure', { ...QUOTE_VALUES, useCases: 'practice-speaking' });
    expect(input(document, '[name="contactName"]').value).toBe('Priya Shah');
    expect(checkedValues(document, 'useCases')).toEqual(['practice-speaking']);
    expect(input(document, '[name="otherUseCase"]').value).toBe('Assemblies');
  });
});

describe('renderFormAnswer: escaping', () => {
  const hostile = `"><script>alert('x')</script>&amp; <b>bold</b> O'Brien`;

  it('puts every value back as text, never as markup', () => {
    const { html, document } = answer('quote', 'failure', {
      ...QUOTE_VALUES,
      contactName: hostile,
      schoolName: '%%form-answer:value:email%%',
      otherUseCase: '$& $1 $$',
    });
    expect(document.querySelector('script')).toBeNull();
    expect(document.querySelector('b')).toBeNull();
    expect(html).not.toContain('<script>');
    expect(input(document, '[name="contactName"]').value).toBe(hostile);
    // A posted value that looks like a marker stays text; replacement patterns stay literal.
    expect(input(document, '[name="schoolName"]').value).toBe('%%form-answer:value:email%%');
    expect(input(document, '[name="otherUseCase"]').value).toBe('$& $1 $$');
  });

  it('ticks only checkboxes whose value was posted exactly', () => {
    const { document } = answer('waitlist', 'failure', {
      email: 'a@b.co',
      interests: ['use" checked="', 'USE', 'General Waitlist'],
    });
    expect(checkedValues(document, 'interests')).toEqual([]);
  });

  it('escapes the five characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('renderFormAnswer: a template that drifted', () => {
  it('throws rather than answer a page without the outcome', () => {
    expect(() => renderFormAnswer('<html><body>old</body></html>', 'quote', 'confirmed', {})).toThrow(
      /no 'confirmed' region/,
    );
  });
});
