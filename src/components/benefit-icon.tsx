import type { ReactNode } from 'react';
import type { SchoolBenefitIcon } from '#src/content/schools.ts';

// Its own module (not icons.tsx, which every page loads): only the schools page draws these.
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
} as const;

const ICON_SHAPES: Record<SchoolBenefitIcon, ReactNode> = {
  pencil: (
    <>
      <path d="M16.5 3.5a2.12 2.12 0 0 1 3 3L8 18l-4 1 1-4z" />
      <path d="M14.5 5.5l3 3" />
      <path d="M13 20h7" />
    </>
  ),
  microphone: (
    <>
      <rect x="9" y="2.5" width="6" height="11" rx="3" />
      <path d="M5.5 10.5a6.5 6.5 0 0 0 13 0" />
      <path d="M12 17v4" />
      <path d="M8.5 21h7" />
    </>
  ),
  languages: (
    <>
      <path d="M3 5h8" />
      <path d="M7 3v2" />
      <path d="M9.5 5c-.7 3.5-3 6.2-6 7.5" />
      <path d="M5 8.5c1 1.6 2.6 2.9 4.5 3.5" />
      <path d="M12.5 21l4-9 4 9" />
      <path d="M14 17.5h5" />
    </>
  ),
  accessibility: (
    <>
      <circle cx="12" cy="12" r="9.5" />
      <circle cx="12" cy="7.25" r="1.25" fill="currentColor" stroke="none" />
      <path d="M7.5 10l4.5 1 4.5-1" />
      <path d="M12 11v3.5" />
      <path d="M9.5 18l2.5-3.5 2.5 3.5" />
    </>
  ),
};

/** A small drawn icon per benefit; decorative, the card title carries the meaning. */
export function BenefitIcon({ icon }: { icon: SchoolBenefitIcon }) {
  return <svg {...BENEFIT_ICON_PROPS}>{ICON_SHAPES[icon]}</svg>;
}
