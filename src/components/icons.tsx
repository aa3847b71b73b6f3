import type { ReactNode } from 'react';

type GlyphProps = { readonly className?: string };

/** A decorative square SVG, hidden from assistive technology, on a box-by-box grid; 16 px by default. */
function Glyph({
  className,
  size = 16,
  box = 16,
  children,
}: GlyphProps & { readonly size?: number; readonly box?: number; readonly children: ReactNode }) {
  return (
    <svg className={className} width={size} height={size} viewBox={`0 0 ${box} ${box}`} aria-hidden="true">
      {children}
    </svg>
  );
}

/** Stroke settings of the line-drawn glyphs (chevrons, ticks). */
const LINE = {
  fill: 'none',
  stroke: 'currentColor',
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

/** Pause (two bars), for the carousel's rotation toggle. */
export function PauseIcon({ className }: GlyphProps) {
  return (
    <Glyph className={className}>
      <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
      <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
    </Glyph>
  );
}

/** Play (a triangle), for the carousel's rotation toggle. */
export function PlayIcon({ className }: GlyphProps) {
  return (
    <Glyph className={className}>
      <path
        d="M4 2.5v11a.75.75 0 0 0 1.14.64l8.5-5.5a.75.75 0 0 0 0-1.28l-8.5-5.5A.75.75 0 0 0 4 2.5Z"
        fill="currentColor"
      />
    </Glyph>
  );
}

/** A chevron pointing back or forward, for previous and next controls. */
export function ArrowIcon({
  direction,
  className,
}: GlyphProps & { readonly direction: 'previous' | 'next' }) {
  return (
    <Glyph className={className}>
      <path d={direction === 'previous' ? 'M10 3 5 8l5 5' : 'M6 3l5 5-5 5'} strokeWidth="2" {...LINE} />
    </Glyph>
  );
}

/** An exclamation mark in a filled circle, before an error message (the text says it too). */
export function ErrorIcon({ className }: GlyphProps) {
  return (
    <Glyph className={className} size={18} box={20}>
      <circle cx="10" cy="10" r="9" fill="currentColor" />
      <path d="M10 5v6" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="10" cy="14.5" r="1.3" fill="#fff" />
    </Glyph>
  );
}

/** The tick that marks a chosen card or a done state (decorative: the text says it too). */
export function CheckIcon({ size }: { readonly size?: number }) {
  return (
    <Glyph size={size} box={20}>
      <path d="M4 10.5l4 4 8-9" strokeWidth="3" {...LINE} />
    </Glyph>
  );
}

/** A large tick in a filled circle, beside a confirmation such as the quote form's thank-you. */
export function SuccessIcon({ className }: GlyphProps) {
  return (
    <Glyph className={className} size={48} box={48}>
      <circle cx="24" cy="24" r="22" fill="currentColor" />
      <path d="M14 25l7 7 13-15" strokeWidth="4.5" {...LINE} stroke="#ffffff" />
    </Glyph>
  );
}
