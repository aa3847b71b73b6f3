import { emulateReducedMotion } from './support/match-media.ts';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CALENDAR, PRODUCT_NAME } from '#src/config/site.ts';
import { SCHOOLS } from '#src/content/schools.ts';
import { SCHOOLS_TESTIMONIALS } from '#src/content/testimonials.ts';
import { SchoolsPage, SCHOOLS_SECTION_IDS } from '#src/pages/schools-page.tsx';

vi.mock('#src/lib/forms/send-form.ts', async (original) => ({
  ...(await original<object>()),
  submitQuoteRequest: vi.fn(async () => ({ success: true })),
}));

// Nothing comes near the viewport in jsdom: lazy parts (slider library, calendar frame) stay as
// their static stand-ins, which is also what the prerendered HTML holds.
class NeverIntersecting {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

let scrollIntoView: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', NeverIntersecting);
  scrollIntoView = vi.fn();
  Element.prototype.scrollIntoView = scrollIntoView as unknown as Element['scrollIntoView'];
});

describe('SchoolsPage — structure', () => {
  it('has one h1, the hero title, and its two buttons', () => {
    render(<SchoolsPage />);
    const h1s = screen.getAllByRole('heading', { level: 1 });
    expect(h1s).toHaveLength(1);
    expect(h1s[0]).toHaveAccessibleName('Give a Voice to Every Learner');
    const hero = screen.getByRole('region', { name: SCHOOLS.hero.title });
    expect(within(hero).getByRole('button', { name: 'Get a Quote' })).toBeVisible();
    expect(within(hero).getByRole('button', { name: 'Learn More' })).toBeVisible();
    expect(within(hero).getByText(SCHOOLS.hero.subtitle)).toBeVisible();
  });

  it('shows the sections in the spec order', () => {
    const { container } = render(<SchoolsPage />);
    const ids = Object.values(SCHOOLS_SECTION_IDS);
    const positions = ids.map((id) => {
      const element = container.querySelector(`#${id}`);
      expect(element, id).not.toBeNull();
      return Array.from(container.querySelectorAll('[id]')).indexOf(element as Element);
    });
    expect(positions).toEqual([...positions].sort((a, b) => a - b));

    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    const spec = [
      `Why Schools Choose ${PRODUCT_NAME}`,
      `They use ${PRODUCT_NAME}`,
      'Get a Quote',
      'Book a Call with Us',
    ];
    expect(headings.filter((text) => spec.includes(text ?? ''))).toEqual(spec);
  });

  it('places the video between the hero and the benefits', () => {
    render(<SchoolsPage />);
    const video = screen.getByRole('button', { name: /^Play video:/ });
    const benefits = screen.getByRole('region', { name: `Why Schools Choose ${PRODUCT_NAME}` });
    const hero = screen.getByRole('region', { name: SCHOOLS.hero.title });
    expect(hero.compareDocumentPosition(video) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(video.compareDocumentPosition(benefits) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows the four benefit cards with their titles, copy and decorative icons', () => {
    render(<SchoolsPage />);
    const benefits = screen.getByRole('region', { name: `Why Schools Choose ${PRODUCT_NAME}` });
    const cards = within(benefits).getAllByRole('listitem');
    expect(cards).toHaveLength(4);
    SCHOOLS.benefits.cards.forEach((benefit, index) => {
      const card = cards[index] as HTMLElement;
      expect(within(card).getByRole('heading', { level: 3, name: benefit.title })).toBeVisible();
      expect(within(card).getByText(benefit.body)).toBeVisible();
      const icon = card.querySelector('svg');
      expect(icon).toHaveAttribute('aria-hidden', 'true');
      expect(icon?.querySelector('path, circle, rect')).not.toBeNull();
    });
  });

  it('shows the five schools testimonials under "They use …"', () => {
    render(<SchoolsPage />);
    const heading = screen.getByRole('heading', { level: 2, name: `They use ${PRODUCT_NAME}` });
    expect(heading).toHaveAttribute('id', 'schools-testimonials-heading');
    expect(SCHOOLS_TESTIMONIALS).toHaveLength(5);
    for (const testimonial of SCHOOLS_TESTIMONIALS) {
      expect(screen.getAllByText(testimonial.quote).length).toBeGreaterThan(0);
    }
  });

  it('has the quote form and the booking calendar with its fallback link', () => {
    render(<SchoolsPage />);
    const quote = screen.getByRole('region', { name: 'Get a Quote' });
    expect(within(quote).getByRole('textbox', { name: 'Your Name' })).toBeVisible();
    expect(within(quote).getByRole('button', { name: 'Request a Quote' })).toBeVisible();
    const call = screen.getByRole('region', { name: 'Book a Call with Us' });
    // The frame's place is held; the frame itself comes as it nears the viewport.
    expect(call.querySelector('.calendar-embed__box')).toHaveStyle({ height: '1050px' });
    expect(call.querySelector('iframe')).toBeNull();
    expect(within(call).getByRole('link', { name: /booking page/i })).toHaveAttribute(
      'href',
      CALENDAR.bookingUrl,
    );
  });
});

describe('SchoolsPage — hero buttons', () => {
  it("'Get a Quote' smooth-scrolls to the form and moves focus to its first field", async () => {
    emulateReducedMotion(false);
    const user = userEvent.setup();
    render(<SchoolsPage />);
    await user.click(screen.getByRole('button', { name: 'Get a Quote' }));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById(SCHOOLS_SECTION_IDS.quote));
    expect(screen.getByRole('textbox', { name: 'Your Name' })).toHaveFocus();
  });

  it("'Get a Quote' jumps without animation under reduced motion", async () => {
    emulateReducedMotion(true);
    const user = userEvent.setup();
    render(<SchoolsPage />);
    await user.click(screen.getByRole('button', { name: 'Get a Quote' }));
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'auto', block: 'start' });
    expect(screen.getByRole('textbox', { name: 'Your Name' })).toHaveFocus();
  });

  it("'Learn More' scrolls to the benefits and moves focus to their heading", async () => {
    emulateReducedMotion(false);
    const user = userEvent.setup();
    render(<SchoolsPage />);
    await user.click(screen.getByRole('button', { name: 'Learn More' }));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById(SCHOOLS_SECTION_IDS.benefits));
    expect(
      screen.getByRole('heading', { level: 2, name: `Why Schools Choose ${PRODUCT_NAME}` }),
    ).toHaveFocus();
  });

  it("'Get a Quote' focuses the thank-you once the form is sent", async () => {
    const user = userEvent.setup();
    render(<SchoolsPage />);
    await user.type(screen.getByRole('textbox', { name: 'Email Address' }), 'head@oakfield.sch.uk');
    await user.click(screen.getByRole('button', { name: 'Request a Quote' }));
    const thankYou = await screen.findByRole('heading', { name: 'Thank You!' });
    thankYou.blur();
    await user.click(screen.getByRole('button', { name: 'Get a Quote' }));
    expect(thankYou).toHaveFocus();
  });
});

describe('SchoolsPage — prerendering', () => {
  it('renders to HTML without window and hydrates it without a mismatch', async () => {
    const html = renderToString(<SchoolsPage />);
    expect(html).toContain('Give a Voice to Every Learner');
    expect(html).toContain(`Why Schools Choose ${PRODUCT_NAME}`);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const onRecoverableError = vi.fn();
    const root = await act(async () => hydrateRoot(container, <SchoolsPage />, { onRecoverableError }));
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(container.innerHTML).toContain('Give a Voice to Every Learner');
    act(() => root.unmount());
    container.remove();
  });
});
