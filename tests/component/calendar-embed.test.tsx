import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { CalendarEmbed } from '@/components/calendar-embed';
import { CALENDAR_FRAME_HEIGHT_PX } from '@/config/constants';
import { CALENDAR } from '@/config/site';
import { bringAllIntoView, installFakeIntersectionObserver } from './support/intersection-observer';

describe('CalendarEmbed', () => {
  beforeEach(() => installFakeIntersectionObserver());

  it('reserves the frame height with a title but no address until it nears the viewport', async () => {
    render(<CalendarEmbed />);
    const frame = screen.getByTitle(CALENDAR.title);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).not.toHaveAttribute('src');
    expect(frame).toHaveAttribute('height', String(CALENDAR_FRAME_HEIGHT_PX));
    expect(CALENDAR_FRAME_HEIGHT_PX).toBe(1050);
    expect(frame.parentElement).toHaveStyle({ height: '1050px' });

    await bringAllIntoView();
    expect(frame).toHaveAttribute('src', CALENDAR.bookingUrl);
  });

  it('keeps the frame to minimal rights', () => {
    render(<CalendarEmbed />);
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

  it('takes its address, title and height from props and renders on the server without an address', async () => {
    const html = renderToString(
      <CalendarEmbed url="https://calendly.com/x/15min" title="Book" height={700} />,
    );
    expect(html).not.toContain('src=');
    render(<CalendarEmbed url="https://calendly.com/x/15min" title="Book" height={700} />);
    const frame = screen.getByTitle('Book');
    expect(frame).toHaveAttribute('height', '700');
    await bringAllIntoView();
    expect(frame).toHaveAttribute('src', 'https://calendly.com/x/15min');
  });
});
