import { useEffect, useRef } from 'react';
import { CALENDAR_FRAME_HEIGHT_PX } from '#src/config/constants.ts';
import { CALENDAR, EXTERNAL_LINK_PROPS } from '#src/config/site.ts';
import { useNearViewport } from '#src/lib/use-near-viewport.ts';
import '#src/styles/schools.css';
import { WAKES_APP_ATTRIBUTE } from '#src/lib/page-marks.ts';

type CalendarEmbedProps = {
  readonly url?: string;
  readonly title?: string;
  readonly height?: number;
};

/** How far ahead of the viewport the calendar starts loading. */
const LOAD_AHEAD_MARGIN = '600px 0px';

/**
 * The scheduling calendar as a lazy iframe, created only as it nears the viewport (no request to
 * the calendar host, no frame built for the first paint); a box of its height holds its place.
 * A plain link to the booking page stays for browsers that block the frame.
 *
 * Focus never ends up under the cookie banner (WCAG 2.4.11): while it is open the frame fits
 * between the header and the banner (schools.css), and focus moving into the frame scrolls it into
 * view, which the browser does not do itself (the page's scroll padding does not reach inside).
 */
export function CalendarEmbed({
  url = CALENDAR.bookingUrl,
  title = CALENDAR.title,
  height = CALENDAR_FRAME_HEIGHT_PX,
}: CalendarEmbedProps) {
  const [boxRef, near] = useNearViewport<HTMLDivElement>(LOAD_AHEAD_MARGIN);
  const frameRef = useRef<HTMLIFrameElement>(null);

  // From mount, not from the frame's creation: a visitor can tab into it the moment it appears.
  useEffect(() => {
    let following: ResizeObserver | null = null;
    const stopFollowing = () => {
      following?.disconnect();
      following = null;
    };
    const reveal = () => {
      const frame = frameRef.current;
      if (frame && document.activeElement === frame) frame.scrollIntoView({ block: 'nearest' });
      else stopFollowing();
    };
    // Focus entering the frame blurs this window (the frame gets no focus event). While focus stays
    // inside, a change of layout (an image, a font, a note above) would move the frame again: keep it
    // revealed until focus comes back to this window.
    const revealFocusedFrame = () => {
      if (!frameRef.current || document.activeElement !== frameRef.current) return;
      reveal();
      if (typeof ResizeObserver === 'undefined' || following) return;
      following = new ResizeObserver(reveal);
      following.observe(document.body);
    };
    window.addEventListener('blur', revealFocusedFrame);
    window.addEventListener('focus', stopFollowing);
    return () => {
      window.removeEventListener('blur', revealFocusedFrame);
      window.removeEventListener('focus', stopFollowing);
      stopFollowing();
    };
  }, []);

  return (
    <div className="calendar-embed">
      <div ref={boxRef} className="calendar-embed__box" style={{ height }} {...{ [WAKES_APP_ATTRIBUTE]: '' }}>
        <p className="calendar-embed__placeholder" aria-hidden="true">
          The booking calendar appears here. If it does not, use the link below.
        </p>
        {near && (
          <iframe
            ref={frameRef}
            className="calendar-embed__frame"
            src={url}
            title={title}
            height={height}
            style={{ height }}
            referrerPolicy="strict-origin-when-cross-origin"
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
          />
        )}
      </div>
      <p className="calendar-embed__fallback">
        <a href={url} {...EXTERNAL_LINK_PROPS}>
          Open the booking page in a new tab
        </a>
      </p>
    </div>
  );
}
