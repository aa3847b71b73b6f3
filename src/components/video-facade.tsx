import { useEffect, useId, useRef, useState } from 'react';
import { VIDEO } from '@/config/site';
import '@/styles/embeds.css';

type VideoFacadeProps = {
  readonly videoId?: string;
  readonly title?: string;
};

/** The player's address on the video platform's privacy-enhanced domain. */
export function videoEmbedUrl(videoId: string): string {
  return `${VIDEO.embedOrigin}/embed/${encodeURIComponent(videoId)}?autoplay=1&rel=0`;
}

/** A drawn poster (no request to the video platform): a child at a microphone, sound waves. */
function VideoPoster() {
  // Unique per instance: two players on one page must not share a gradient id.
  const gradientId = `video-poster-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg
      className="video-facade__poster"
      width="1280"
      height="720"
      viewBox="0 0 1280 720"
      xmlns="http://www.w3.org/2000/svg"
      focusable="false"
      aria-hidden="true"
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#5b2ee0" />
          <stop offset="1" stopColor="#3d1d9e" />
        </linearGradient>
      </defs>
      <rect width="1280" height="720" fill={`url(#${gradientId})`} />
      <circle cx="1120" cy="120" r="220" fill="#ffffff" opacity="0.06" />
      <circle cx="160" cy="640" r="260" fill="#ffffff" opacity="0.05" />
      <g fill="none" stroke="#ffb703" strokeWidth="14" strokeLinecap="round" opacity="0.9">
        <path d="M300 250c-40 60-40 160 0 220" />
        <path d="M240 200c-70 100-70 220 0 320" />
        <path d="M980 250c40 60 40 160 0 220" />
        <path d="M1040 200c70 100 70 220 0 320" />
      </g>
      <g transform="translate(640 370)">
        <rect x="-70" y="-190" width="140" height="230" rx="70" fill="#ffe8a3" />
        <g stroke="#1b1530" strokeWidth="8" strokeLinecap="round" opacity="0.35">
          <path d="M-40-130h80M-40-95h80M-40-60h80M-40-25h80" />
        </g>
        <path
          d="M-110-10a110 110 0 0 0 220 0"
          fill="none"
          stroke="#ffffff"
          strokeWidth="16"
          strokeLinecap="round"
        />
        <path d="M0 100v70M-70 180h140" stroke="#ffffff" strokeWidth="16" strokeLinecap="round" />
      </g>
    </svg>
  );
}

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
          src={videoEmbedUrl(videoId)}
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
          <VideoPoster />
          <span className="video-facade__play" aria-hidden="true">
            <svg width="96" height="96" viewBox="0 0 96 96" focusable="false">
              <circle cx="48" cy="48" r="48" fill="#ffffff" />
              <path d="M38 30v36l30-18z" fill="#5b2ee0" />
            </svg>
          </span>
        </button>
      )}
    </div>
  );
}
