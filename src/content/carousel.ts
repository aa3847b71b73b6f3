/** The testimonial carousel's control names and slide labels (WAI-ARIA carousel pattern). */
export const CAROUSEL_TEXT = {
  pause: 'Pause',
  play: 'Play',
  pauseLabel: 'Pause testimonials',
  playLabel: 'Play testimonials',
  previousLabel: 'Previous testimonial',
  nextLabel: 'Next testimonial',
  /** A slide's name, e.g. '3 of 16'. */
  slideLabel: (position: number, total: number) => `${position} of ${total}`,
} as const;
