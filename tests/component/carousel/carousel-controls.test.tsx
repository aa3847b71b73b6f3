import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CarouselControls, type CarouselControlsProps } from '#src/components/carousel/carousel-controls.tsx';

function renderControls(overrides: Partial<CarouselControlsProps> = {}) {
  const props = {
    playing: true,
    canMove: true,
    ready: true,
    onToggle: vi.fn(),
    onPrevious: vi.fn(),
    onNext: vi.fn(),
    ...overrides,
  };
  render(<CarouselControls {...props} />);
  return props;
}

describe('CarouselControls', () => {
  it('offers the rotation toggle first, then previous and next, each with a name', () => {
    renderControls();
    expect(screen.getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Pause testimonials',
      'Previous testimonial',
      'Next testimonial',
    ]);
    expect(screen.getByRole('button', { name: 'Pause testimonials' })).toHaveTextContent('Pause');
  });

  it('offers Play once rotation is off', () => {
    renderControls({ playing: false });
    expect(screen.getByRole('button', { name: 'Play testimonials' })).toHaveTextContent('Play');
  });

  it('calls back for each control', async () => {
    const user = userEvent.setup();
    const props = renderControls();
    await user.click(screen.getByRole('button', { name: 'Pause testimonials' }));
    await user.click(screen.getByRole('button', { name: 'Previous testimonial' }));
    await user.click(screen.getByRole('button', { name: 'Next testimonial' }));
    expect(props.onToggle).toHaveBeenCalledTimes(1);
    expect(props.onPrevious).toHaveBeenCalledTimes(1);
    expect(props.onNext).toHaveBeenCalledTimes(1);
  });

  it('disables every control while nothing can move', async () => {
    const user = userEvent.setup();
    const props = renderControls({ canMove: false });
    for (const button of screen.getAllByRole('button')) expect(button).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next testimonial' }));
    expect(props.onNext).not.toHaveBeenCalled();
  });
});
