import type { ReactNode } from 'react';
import type { SocialIcon } from '@/config/site';
import type { SchoolBenefitIcon } from '@/content/schools';

const PATHS: Record<SocialIcon, string> = {
  linkedin:
    'M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.75h4v11.25H3zM9.5 9.75h3.8v1.54h.06c.53-1 1.83-2.06 3.77-2.06 4.03 0 4.77 2.65 4.77 6.1V21h-4v-5.02c0-1.2-.02-2.74-1.67-2.74-1.67 0-1.93 1.3-1.93 2.65V21h-4z',
  facebook:
    'M13.5 21v-7.5h2.55l.38-3h-2.93V8.6c0-.86.24-1.45 1.48-1.45h1.57V4.47A21 21 0 0 0 14.26 4.3c-2.27 0-3.76 1.38-3.76 3.92v2.28H8v3h2.5V21z',
  instagram:
    'M12 7.3a4.7 4.7 0 1 0 0 9.4 4.7 4.7 0 0 0 0-9.4zm0 7.75a3.05 3.05 0 1 1 0-6.1 3.05 3.05 0 0 1 0 6.1zM17 6a1.1 1.1 0 1 0 0 2.2A1.1 1.1 0 0 0 17 6zM12 3c-2.45 0-2.75 0-3.71.05C5.4 3.2 3.2 5.37 3.05 8.29 3 9.25 3 9.55 3 12s0 2.75.05 3.71c.15 2.92 2.32 5.12 5.24 5.24.96.05 1.26.05 3.71.05s2.75 0 3.71-.05c2.91-.13 5.12-2.32 5.24-5.24.05-.96.05-1.26.05-3.71s0-2.75-.05-3.71C20.82 5.38 18.63 3.18 15.71 3.05 14.75 3 14.45 3 12 3z',
};

/** A decorative social-network glyph; the link around it carries the accessible name. */
export function SocialGlyph({ icon }: { icon: SocialIcon }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path fill="currentColor" fillRule="evenodd" d={PATHS[icon]} />
    </svg>
  );
}

/** The product logo: a microphone mark and the name. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="16" fill="#5b2ee0" />
      <rect x="24" y="12" width="16" height="26" rx="8" fill="#fff" />
      <path d="M18 32a14 14 0 0 0 28 0" fill="none" stroke="#ffb703" strokeWidth="4" strokeLinecap="round" />
      <path d="M32 46v8" stroke="#ffb703" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

/** Props every small control glyph shares: decorative, sized by the control. */
type GlyphProps = { readonly className?: string; readonly size?: number };

/** A decorative square SVG: hidden from assistive technology and never focusable. */
function Glyph({
  className,
  size,
  box,
  children,
}: GlyphProps & { readonly box: number; readonly children: ReactNode }) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox={`0 0 ${box} ${box}`}
      aria-hidden="true"
      focusable="false"
    >
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
export function PauseIcon({ className, size = 16 }: GlyphProps) {
  return (
    <Glyph className={className} size={size} box={16}>
      <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
      <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
    </Glyph>
  );
}

/** Play (a triangle), for the carousel's rotation toggle. */
export function PlayIcon({ className, size = 16 }: GlyphProps) {
  return (
    <Glyph className={className} size={size} box={16}>
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
  size = 16,
}: GlyphProps & { readonly direction: 'previous' | 'next' }) {
  return (
    <Glyph className={className} size={size} box={16}>
      <path d={direction === 'previous' ? 'M10 3 5 8l5 5' : 'M6 3l5 5-5 5'} strokeWidth="2" {...LINE} />
    </Glyph>
  );
}

/** An exclamation mark in a filled circle, before an error message (the text says it too). */
export function ErrorIcon({ className, size = 18 }: GlyphProps) {
  return (
    <Glyph className={className} size={size} box={20}>
      <circle cx="10" cy="10" r="9" fill="currentColor" />
      <path d="M10 5v6" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="10" cy="14.5" r="1.3" fill="#fff" />
    </Glyph>
  );
}

/** The tick that marks a chosen card or a done state (decorative: the text says it too). */
export function CheckIcon({ className, size = 16 }: GlyphProps) {
  return (
    <Glyph className={className} size={size} box={20}>
      <path d="M4 10.5l4 4 8-9" strokeWidth="3" {...LINE} />
    </Glyph>
  );
}

/** A large tick in a filled circle, beside a confirmation such as the quote form's thank-you. */
export function SuccessIcon({ className, size = 48 }: GlyphProps) {
  return (
    <Glyph className={className} size={size} box={48}>
      <circle cx="24" cy="24" r="22" fill="currentColor" />
      <path d="M14 25l7 7 13-15" strokeWidth="4.5" {...LINE} stroke="#ffffff" />
    </Glyph>
  );
}

const BENEFIT_ICON_PROPS = {
  viewBox: '0 0 24 24',
  width: 28,
  height: 28,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

/** A small drawn icon per benefit; decorative, the card title carries the meaning. */
export function BenefitIcon({ icon }: { icon: SchoolBenefitIcon }) {
  switch (icon) {
    case 'pencil':
      return (
        <svg {...BENEFIT_ICON_PROPS}>
          <path d="M16.5 3.5a2.12 2.12 0 0 1 3 3L8 18l-4 1 1-4z" />
          <path d="M14.5 5.5l3 3" />
          <path d="M13 20h7" />
        </svg>
      );
    case 'microphone':
      return (
        <svg {...BENEFIT_ICON_PROPS}>
          <rect x="9" y="2.5" width="6" height="11" rx="3" />
          <path d="M5.5 10.5a6.5 6.5 0 0 0 13 0" />
          <path d="M12 17v4" />
          <path d="M8.5 21h7" />
        </svg>
      );
    case 'languages':
      return (
        <svg {...BENEFIT_ICON_PROPS}>
          <path d="M3 5h8" />
          <path d="M7 3v2" />
          <path d="M9.5 5c-.7 3.5-3 6.2-6 7.5" />
          <path d="M5 8.5c1 1.6 2.6 2.9 4.5 3.5" />
          <path d="M12.5 21l4-9 4 9" />
          <path d="M14 17.5h5" />
        </svg>
      );
    case 'accessibility':
      return (
        <svg {...BENEFIT_ICON_PROPS}>
          <circle cx="12" cy="12" r="9.5" />
          <circle cx="12" cy="7.25" r="1.25" fill="currentColor" stroke="none" />
          <path d="M7.5 10l4.5 1 4.5-1" />
          <path d="M12 11v3.5" />
          <path d="M9.5 18l2.5-3.5 2.5 3.5" />
        </svg>
      );
  }
}
