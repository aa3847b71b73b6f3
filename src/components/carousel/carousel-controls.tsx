import type { Ref } from 'react';
import { ArrowIcon, PauseIcon, PlayIcon } from '@/components/icons';
import { CAROUSEL_TEXT } from '@/content/carousel';

export type CarouselControlsProps = {
  /** Whether the visitor has rotation on (the toggle then offers Pause). */
  readonly playing: boolean;
  /** False until the slider is ready, or when every slide already fits. */
  readonly canMove: boolean;
  /** Space stays reserved before the slider is ready; the controls show once they can act. */
  readonly ready: boolean;
  readonly onToggle: () => void;
  readonly onPrevious: () => void;
  readonly onNext: () => void;
  /** The toggle: focus on it does not pause rotation. */
  readonly toggleRef?: Ref<HTMLButtonElement>;
};

/**
 * The carousel's controls in the WAI-ARIA pattern's order: the rotation toggle first, then
 * previous and next.
 */
export function CarouselControls({
  playing,
  canMove,
  ready,
  onToggle,
  onPrevious,
  onNext,
  toggleRef,
}: CarouselControlsProps) {
  return (
    <div className="carousel-controls" data-ready={ready ? 'true' : 'false'}>
      <button
        ref={toggleRef}
        type="button"
        className="carousel-button carousel-button--toggle"
        aria-label={playing ? CAROUSEL_TEXT.pauseLabel : CAROUSEL_TEXT.playLabel}
        disabled={!canMove}
        onClick={onToggle}
      >
        {playing ? (
          <PauseIcon className="carousel-button__icon" />
        ) : (
          <PlayIcon className="carousel-button__icon" />
        )}
        {playing ? CAROUSEL_TEXT.pause : CAROUSEL_TEXT.play}
      </button>
      <span className="carousel-controls__spacer" />
      <button
        type="button"
        className="carousel-button"
        aria-label={CAROUSEL_TEXT.previousLabel}
        disabled={!canMove}
        onClick={onPrevious}
      >
        <ArrowIcon direction="previous" className="carousel-button__icon" />
      </button>
      <button
        type="button"
        className="carousel-button"
        aria-label={CAROUSEL_TEXT.nextLabel}
        disabled={!canMove}
        onClick={onNext}
      >
        <ArrowIcon direction="next" className="carousel-button__icon" />
      </button>
    </div>
  );
}
