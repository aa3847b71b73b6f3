import { emulateReducedMotion } from '#tests/component/support/match-media.ts';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { TestimonialCarousel } from '#src/components/carousel/testimonial-carousel.tsx';
import { HOME_TESTIMONIALS, SCHOOLS_TESTIMONIALS } from '#src/content/testimonials.ts';
import {
  bringAllIntoView,
  installFakeIntersectionObserver,
} from '#tests/component/support/intersection-observer.ts';

const HEADING = 'They use Podling';
const HEADING_ID = 'testimonials-heading';

function renderCarousel(testimonials = HOME_TESTIMONIALS) {
  return render(<TestimonialCarousel heading={HEADING} testimonials={testimonials} headingId={HEADING_ID} />);
}

/** Loads the slider (as the section nears the viewport) and waits for it to mount. */
async function mountSlider(container: HTMLElement) {
  await bringAllIntoView();
  await waitFor(() => {
    // jsdom fetches no stylesheets: report slick's as loaded so the slider mounts.
    document.head.querySelector('link[rel="stylesheet"]')?.dispatchEvent(new Event('load'));
    expect(container.querySelector('.slick-slider')).not.toBeNull();
  });
  await waitFor(() => expect(screen.getByRole('button', { name: /testimonials$/ })).toBeEnabled());
}

describe('TestimonialCarousel', () => {
  beforeEach(() => {
    installFakeIntersectionObserver();
    emulateReducedMotion(false);
  });

  it('renders a labelled section and, before the slider loads, every testimonial as plain content', () => {
    const { container } = renderCarousel();
    const section = screen.getByRole('region', { name: HEADING });
    expect(within(section).getByRole('heading', { level: 2, name: HEADING })).toHaveAttribute(
      'id',
      HEADING_ID,
    );

    const list = within(section).getByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(HOME_TESTIMONIALS.length);
    for (const testimonial of HOME_TESTIMONIALS) {
      const quote = within(list).getByText(testimonial.quote);
      expect(quote.closest('blockquote')).not.toBeNull();
      expect(within(list).getByText(testimonial.author)).toBeInTheDocument();
      if (testimonial.role) expect(within(list).getAllByText(testimonial.role).length).toBeGreaterThan(0);
    }
    expect(container.querySelectorAll('svg.avatar')).toHaveLength(HOME_TESTIMONIALS.length);
    expect(container.querySelector('.slick-slider')).toBeNull();
  });

  it('does not load the slider until the section nears the viewport', async () => {
    const { container } = renderCarousel();
    // Had the render started loading the library, that import would be done here too.
    await act(async () => {
      await import('react-slick');
    });
    expect(document.head.querySelector('link[rel="stylesheet"]')).toBeNull();
    expect(container.querySelector('.slick-slider')).toBeNull();
    await mountSlider(container);
    expect(screen.queryByRole('list')).toBeNull();
    expect(document.head.querySelector('link[rel="stylesheet"]')).not.toBeNull();
  });

  it('renders on the server and hydrates without a mismatch', async () => {
    const element = (
      <TestimonialCarousel heading={HEADING} testimonials={SCHOOLS_TESTIMONIALS} headingId={HEADING_ID} />
    );
    const html = renderToString(element);
    expect(html).toContain(SCHOOLS_TESTIMONIALS[0]?.quote.slice(0, 20));
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable: unknown[] = [];
    const root = hydrateRoot(container, element, { onRecoverableError: (error) => recoverable.push(error) });
    await act(async () => undefined);
    expect(recoverable).toEqual([]);
    act(() => root.unmount());
    container.remove();
  });

  it('shows named previous, next and pause controls once the slider is ready, and toggles pause/play', async () => {
    const user = userEvent.setup();
    const { container } = renderCarousel();
    expect(screen.getByRole('button', { name: 'Pause testimonials' })).toBeDisabled();
    await mountSlider(container);

    expect(screen.getByRole('button', { name: 'Previous testimonial' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Next testimonial' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Pause testimonials' }));
    expect(screen.getByRole('button', { name: 'Play testimonials' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Play testimonials' }));
    expect(screen.getByRole('button', { name: 'Pause testimonials' })).toBeInTheDocument();
  });

  it('starts paused when the visitor prefers reduced motion', async () => {
    emulateReducedMotion(true);
    const { container } = renderCarousel();
    await mountSlider(container);
    expect(screen.getByRole('button', { name: 'Play testimonials' })).toBeEnabled();
  });

  it('names the slides in view as groups "N of M" and announces changes only while not rotating', async () => {
    const user = userEvent.setup();
    const { container } = renderCarousel();
    await mountSlider(container);
    const carousel = screen.getByRole('region', { name: HEADING });
    expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
    await waitFor(() => expect(within(carousel).getAllByRole('group').length).toBeGreaterThan(0));
    for (const slide of within(carousel).getAllByRole('group')) {
      expect(slide).toHaveAttribute('aria-roledescription', 'slide');
      expect(slide).toHaveAccessibleName(new RegExp(`^\\d+ of ${HOME_TESTIMONIALS.length}$`));
    }
    const viewport = screen.getByTestId('testimonial-viewport');
    expect(viewport).toHaveAttribute('aria-live', 'off');
    await user.click(screen.getByRole('button', { name: 'Pause testimonials' }));
    expect(viewport).toHaveAttribute('aria-live', 'polite');
  });

  it('stops rotating while the pointer or keyboard focus is inside, and not for focus on the toggle', async () => {
    const user = userEvent.setup();
    const { container } = renderCarousel();
    await mountSlider(container);
    const viewport = screen.getByTestId('testimonial-viewport');
    const section = screen.getByRole('region', { name: HEADING });
    await user.hover(section);
    expect(viewport).toHaveAttribute('aria-live', 'polite');
    await user.unhover(section);
    expect(viewport).toHaveAttribute('aria-live', 'off');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Pause testimonials' })).toHaveFocus();
    expect(viewport).toHaveAttribute('aria-live', 'off');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Previous testimonial' })).toHaveFocus();
    expect(viewport).toHaveAttribute('aria-live', 'polite');
  });

  it('leaves nothing focusable inside hidden slides or clones', async () => {
    const { container } = renderCarousel();
    await mountSlider(container);
    await waitFor(() => expect(container.querySelectorAll('.slick-slide[inert]').length).toBeGreaterThan(0));

    const hiddenSlides = container.querySelectorAll<HTMLElement>(
      '.slick-slide[aria-hidden="true"], .slick-cloned',
    );
    expect(hiddenSlides.length).toBeGreaterThan(0);
    for (const slide of hiddenSlides) {
      if (!slide.classList.contains('slick-active')) expect(slide).toHaveAttribute('inert');
      const tabbable = slide.querySelectorAll(
        'a[href], button, input, select, textarea, iframe, [tabindex]:not([tabindex="-1"])',
      );
      expect(tabbable).toHaveLength(0);
    }
    for (const slide of container.querySelectorAll<HTMLElement>('.slick-slide.slick-active')) {
      expect(slide).not.toHaveAttribute('inert');
    }
  });

  it('disables its controls when every testimonial already fits (5 at the widest)', async () => {
    const { container } = renderCarousel(SCHOOLS_TESTIMONIALS);
    await bringAllIntoView();
    await waitFor(() => {
      document.head.querySelector('link[rel="stylesheet"]')?.dispatchEvent(new Event('load'));
      expect(container.querySelector('.slick-slider')).not.toBeNull();
    });
    expect(screen.getByRole('button', { name: 'Next testimonial' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Pause testimonials' })).toBeDisabled();
  });
});
