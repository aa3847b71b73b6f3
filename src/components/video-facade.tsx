import { useEffect, useRef, useState } from 'react';
import { VIDEO } from '#src/config/site.ts';
import '#src/styles/embeds.css';

type VideoFacadeProps = {
  readonly videoId?: string;
  readonly title?: string;
};

/** The drawn poster (a local file: no request to the video platform), fetched lazily below the fold. */
export const VIDEO_POSTER_SRC = '/images/video-poster.svg';

/**
 * Click-to-load video: a local poster and a play button; the platform's player (and every
 * request to it) arrives only when the visitor asks for it, in a box of the same size.
 */
export function VideoFacade({ videoId = VIDEO.id, title = VIDEO.title }: VideoFacadeProps) {
  const [playing, setPlaying] = useState(false);
  const frameRef = useRef<HTMLIFrameElement | null>(null);

  useEffect(() => {
    if (playing) frameRef.current?.focus();
  }, [playing]);

  return (
    <div className="video-facade">
      {playing ? (
        <iframe
          ref={frameRef}
          className="video-facade__frame"
          src={`${VIDEO.embedOrigin}/embed/${encodeURIComponent(videoId)}?autoplay=1&rel=0`}
          title={title}
          width="1280"
          height="720"
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
          loading="lazy"
        />
      ) : (
        <button
          type="button"
          className="video-facade__button"
          aria-label={`Play video: ${title}`}
          onClick={() => setPlaying(true)}
        >
          <img
            className="video-facade__poster"
            src={VIDEO_POSTER_SRC}
            width="1280"
            height="720"
            alt=""
            loading="lazy"
            decoding="async"
          />
          <span className="video-facade__play" aria-hidden="true">
            <svg width="96" height="96" viewBox="0 0 96 96">
              <circle cx="48" cy="48" r="48" fill="#ffffff" />
              <path d="M38 30v36l30-18z" fill="#5b2ee0" />
            </svg>
          </span>
        </button>
      )}
    </div>
  );
}
