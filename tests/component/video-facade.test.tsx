import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { VIDEO_POSTER_SRC, VideoFacade } from '#src/components/video-facade.tsx';
import { VIDEO } from '#src/config/site.ts';

describe('VideoFacade', () => {
  it('shows a local poster and a named play button, with no player and no remote address', () => {
    const { container } = render(<VideoFacade />);
    expect(screen.getByRole('button', { name: `Play video: ${VIDEO.title}` })).toBeInTheDocument();
    expect(container.querySelector('iframe')).toBeNull();
    const poster = container.querySelector('img.video-facade__poster');
    expect(poster).toHaveAttribute('src', VIDEO_POSTER_SRC);
    expect(VIDEO_POSTER_SRC).toMatch(/^\/images\//);
    expect(poster).toHaveAttribute('width', '1280');
    expect(poster).toHaveAttribute('height', '720');
    expect(poster).toHaveAttribute('loading', 'lazy');
    expect(container.innerHTML).not.toMatch(/youtube/i);
  });

  it('renders on the server without the player', () => {
    const html = renderToString(<VideoFacade />);
    expect(html).not.toContain('<iframe');
    expect(html).toContain(`Play video: ${VIDEO.title}`);
  });

  it('swaps in the privacy-enhanced player on click and moves focus to it', async () => {
    const user = userEvent.setup();
    const { container } = render(<VideoFacade />);
    await user.click(screen.getByRole('button', { name: /^Play video:/ }));

    const frame = screen.getByTitle(VIDEO.title);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute(
      'src',
      `https://www.youtube-nocookie.com/embed/${VIDEO.id}?autoplay=1&rel=0`,
    );
    expect(frame).toHaveAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
    expect(frame.getAttribute('allow')).toContain('autoplay');
    expect(frame).toHaveFocus();
    expect(screen.queryByRole('button', { name: /^Play video:/ })).toBeNull();
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('takes a video id and title', async () => {
    const user = userEvent.setup();
    render(<VideoFacade videoId="abc123" title="Classroom demo" />);
    await user.click(screen.getByRole('button', { name: 'Play video: Classroom demo' }));
    expect(screen.getByTitle('Classroom demo')).toHaveAttribute(
      'src',
      'https://www.youtube-nocookie.com/embed/abc123?autoplay=1&rel=0',
    );
  });
});
