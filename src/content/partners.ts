/**
 * The 'Supported by' strip. The names are invented placeholders, not real organisations or
 * trademarks: the owner replaces them (and the drawn marks) with the real supporters' artwork.
 */

/** Which simple drawn mark sits to the left of a wordmark. */
export type PartnerMark = 'rings' | 'leaf' | 'peak' | 'page' | 'cloud';

export type Partner = {
  readonly id: string;
  readonly name: string;
  /** What kind of supporter this is, as the spec lists them. */
  readonly kind: string;
  /** Accessible name of the logo: '<name>, <kind>'. */
  readonly alt: string;
  /** Wordmark: a bold first line and an optional smaller second line. */
  readonly wordmark: readonly [string] | readonly [string, string];
  readonly mark: PartnerMark;
  /** Intrinsic size in CSS pixels, so the strip never shifts while it loads. */
  readonly width: number;
  readonly height: number;
};

const LOGO_SIZE = { width: 200, height: 56 } as const;

function partner(
  id: string,
  name: string,
  kind: string,
  wordmark: Partner['wordmark'],
  mark: PartnerMark,
): Partner {
  return { id, name, kind, alt: `${name}, ${kind}`, wordmark, mark, ...LOGO_SIZE };
}

export const PARTNERS: readonly Partner[] = [
  partner(
    'northern-research-fund',
    'Northern Research Fund',
    'research funding body',
    ['Northern', 'Research Fund'],
    'rings',
  ),
  partner('wrenfield-impact', 'Wrenfield Impact', 'impact investor', ['Wrenfield', 'Impact'], 'leaf'),
  partner(
    'ascent-founders-programme',
    'Ascent Founders Programme',
    'startup leadership programme',
    ['Ascent', 'Founders Programme'],
    'peak',
  ),
  partner('startup-lantern', 'Startup Lantern', 'startups magazine', ['Startup', 'Lantern Magazine'], 'page'),
  partner(
    'fenmoor-cirrolite',
    'Fenmoor University and Cirrolite Cloud',
    'university and cloud partnership',
    ['Fenmoor University', 'with Cirrolite Cloud'],
    'cloud',
  ),
];
