const FOCUSABLE =
  'a[href], area[href], button, input, select, textarea, iframe, audio[controls], video[controls], [contenteditable], [tabindex]';

/** Where an element's own tabindex is kept while its slide is hidden ('' when it had none). */
const SAVED_TABINDEX = 'data-carousel-tabindex';

/**
 * Keeps slides out of view, and slick's clones, out of the tab order and the accessibility
 * tree (inert, aria-hidden); restores what it changed when a slide comes into view.
 */
export function hideInactiveSlides(root: HTMLElement | null): void {
  if (!root) return;
  root.querySelectorAll<HTMLElement>('.slick-slide').forEach((slide) => {
    const hidden = !slide.classList.contains('slick-active');
    slide.toggleAttribute('inert', hidden);
    slide.setAttribute('aria-hidden', String(hidden));
    slide.setAttribute('tabindex', '-1');
    slide.querySelectorAll<HTMLElement>(FOCUSABLE).forEach((element) => {
      if (hidden) {
        if (!element.hasAttribute(SAVED_TABINDEX)) {
          element.setAttribute(SAVED_TABINDEX, element.getAttribute('tabindex') ?? '');
        }
        element.setAttribute('tabindex', '-1');
      } else if (element.hasAttribute(SAVED_TABINDEX)) {
        const original = element.getAttribute(SAVED_TABINDEX);
        if (original) element.setAttribute('tabindex', original);
        else element.removeAttribute('tabindex');
        element.removeAttribute(SAVED_TABINDEX);
      }
    });
  });
}
