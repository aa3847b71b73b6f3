import type { Ref } from 'react';
import { ArrowIcon, PauseIcon, PlayIcon } from '#src/components/icons.tsx';
import { CAROUSEL_TEXT } from '#src/content/carousel.ts';

const STEPS = [
  { direction: 'previous', label: CAROUSEL_TEXT.previousLabel },
  { direction: 'next', label: CAROUSEL_TEXT.nextLabel },
] as const;

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

/** The carousel's controls in the WAI-ARIA pattern's order: the rotation toggle, previous, next. */
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
      {STEPS.map(({ direction, label }) => (
        <button
          key={direction}
          type="button"
          className="carousel-button"
          aria-label={label}
          disabled={!canMove}
          onClick={direction === 'previous' ? onPrevious : onNext}
        >
          <ArrowIcon direction={direction} className="carousel-button__icon" />
        </button>
      ))}
    </div>
  );
}
