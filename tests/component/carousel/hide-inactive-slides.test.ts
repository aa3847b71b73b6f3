import { hideInactiveSlides } from '#src/components/carousel/hide-inactive-slides.ts';

/** slick's markup: a track of slides, the ones in view marked slick-active. */
function track(activeFlags: boolean[]): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = activeFlags
    .map(
      (active, index) =>
        `<div class="slick-slide${active ? ' slick-active' : ''}"><a href="#s${index}">Read</a><button tabindex="2">More</button></div>`,
    )
    .join('');
  document.body.append(root);
  return root;
}

const slides = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('.slick-slide')];

describe('hideInactiveSlides', () => {
  it('makes slides out of view inert and hidden, and takes their controls out of the tab order', () => {
    const root = track([true, false]);
    hideInactiveSlides(root);
    const [shown, hidden] = slides(root);
    expect(shown).not.toHaveAttribute('inert');
    expect(shown).toHaveAttribute('aria-hidden', 'false');
    expect(shown?.querySelector('a')).not.toHaveAttribute('tabindex');
    expect(hidden).toHaveAttribute('inert');
    expect(hidden).toHaveAttribute('aria-hidden', 'true');
    for (const control of hidden?.querySelectorAll('a, button') ?? []) {
      expect(control).toHaveAttribute('tabindex', '-1');
    }
  });

  it('gives controls back their own tab order when their slide comes into view', () => {
    const root = track([false]);
    hideInactiveSlides(root);
    slides(root)[0]?.classList.add('slick-active');
    hideInactiveSlides(root);
    const slide = slides(root)[0];
    expect(slide).not.toHaveAttribute('inert');
    expect(slide?.querySelector('a')).not.toHaveAttribute('tabindex');
    expect(slide?.querySelector('button')).toHaveAttribute('tabindex', '2');
  });

  it('does nothing without a root', () => {
    expect(() => hideInactiveSlides(null)).not.toThrow();
  });
});
