import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { useInteractionPause } from '#src/components/carousel/use-interaction-pause.ts';

function Harness() {
  const region = useRef<HTMLElement | null>(null);
  const toggle = useRef<HTMLButtonElement | null>(null);
  const paused = useInteractionPause(region, toggle);
  return (
    <>
      <section ref={region} aria-label="Carousel">
        <button ref={toggle} type="button">
          Toggle
        </button>
        <button type="button">Inside</button>
      </section>
      <button type="button">Outside</button>
      <output>{paused ? 'paused' : 'running'}</output>
    </>
  );
}

describe('useInteractionPause', () => {
  it('is true while the pointer is inside, except over the toggle', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.hover(screen.getByRole('button', { name: 'Inside' }));
    expect(screen.getByRole('status')).toHaveTextContent('paused');
    await user.hover(screen.getByRole('button', { name: 'Toggle' }));
    expect(screen.getByRole('status')).toHaveTextContent('running');
    await user.hover(screen.getByRole('region', { name: 'Carousel' }));
    expect(screen.getByRole('status')).toHaveTextContent('paused');
    await user.unhover(screen.getByRole('region', { name: 'Carousel' }));
    expect(screen.getByRole('status')).toHaveTextContent('running');
  });

  it('is true while focus is inside, except on the toggle', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Toggle' })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('running');
    await user.tab();
    expect(screen.getByRole('status')).toHaveTextContent('paused');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Outside' })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('running');
  });
});
