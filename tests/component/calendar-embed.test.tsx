import { render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { renderToString } from 'react-dom/server';
import { CalendarEmbed } from '#src/components/calendar-embed.tsx';
import { CALENDAR_FRAME_HEIGHT_PX } from '#src/config/constants.ts';
import { CALENDAR } from '#src/config/site.ts';
import { bringAllIntoView, installFakeIntersectionObserver } from './support/intersection-observer.ts';

describe('CalendarEmbed', () => {
  beforeEach(() => installFakeIntersectionObserver());

  it('reserves the frame height and creates the frame only as it nears the viewport', async () => {
    const { container } = render(<CalendarEmbed />);
    expect(container.querySelector('iframe')).toBeNull();
    expect(CALENDAR_FRAME_HEIGHT_PX).toBe(1050);
    const box = container.querySelector('.calendar-embed__box');
    expect(box).toHaveStyle({ height: '1050px' });

    await bringAllIntoView();
    const frame = screen.getByTitle(CALENDAR.title);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', CALENDAR.bookingUrl);
    expect(frame).toHaveAttribute('height', String(CALENDAR_FRAME_HEIGHT_PX));
    expect(frame.parentElement).toBe(box);
  });

  it('keeps the frame to minimal rights', async () => {
    render(<CalendarEmbed />);
    await bringAllIntoView();
    const frame = screen.getByTitle(CALENDAR.title);
    expect(frame).toHaveAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
    expect(frame).not.toHaveAttribute('allow');
    expect(frame.getAttribute('sandbox')?.split(' ')).toEqual(
      expect.arrayContaining(['allow-scripts', 'allow-same-origin', 'allow-forms']),
    );
  });

  it('always offers a plain link to the booking page in a new tab', () => {
    render(<CalendarEmbed />);
    const link = screen.getByRole('link', { name: 'Open the booking page in a new tab' });
    expect(link).toHaveAttribute('href', CALENDAR.bookingUrl);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('takes its address, title and height from props and renders on the server without the frame', async () => {
    const html = renderToString(
      <CalendarEmbed url="https://calendly.com/x/15min" title="Book" height={700} />,
    );
    expect(html).not.toContain('<iframe');
    expect(html).toContain('height:700px');
    render(<CalendarEmbed url="https://calendly.com/x/15min" title="Book" height={700} />);
    await bringAllIntoView();
    const frame = screen.getByTitle('Book');
    expect(frame).toHaveAttribute('height', '700');
    expect(frame).toHaveAttribute('src', 'https://calendly.com/x/15min');
  });

  it('scrolls the frame fully into view when focus moves into it, and only then (WCAG 2.4.11)', async () => {
    render(<CalendarEmbed />);
    await bringAllIntoView();
    const frame = screen.getByTitle(CALENDAR.title);
    const scrollIntoView = vi.fn();
    frame.scrollIntoView = scrollIntoView;

    // The window blurs for another reason (the visitor switched tabs): the page stays put.
    window.dispatchEvent(new Event('blur'));
    expect(scrollIntoView).not.toHaveBeenCalled();

    // Focus enters the frame: this window blurs with the frame as its active element.
    frame.focus();
    expect(document.activeElement).toBe(frame);
    window.dispatchEvent(new Event('blur'));
    expect(scrollIntoView).toHaveBeenCalledWith({ block: 'nearest' });
  });
});
