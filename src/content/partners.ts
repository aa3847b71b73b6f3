/**
 * The 'Supported by' strip. The names are invented placeholders, not real organisations or
 * trademarks: the owner replaces them, and their logos in public/images/supporters/ (greys only,
 * 200 × 56, one file per id), with the real supporters' artwork.
 */

export type Partner = {
  readonly id: string;
  readonly name: string;
  /** What kind of supporter this is, as the spec lists them. */
  readonly kind: string;
  /** Accessible name of the logo: '<name>, <kind>'. */
  readonly alt: string;
  /** The logo's file, loaded lazily (out of the home page's first window). */
  readonly src: string;
  /** Intrinsic size in CSS pixels, so the strip never shifts while it loads. */
  readonly width: number;
  readonly height: number;
};

const LOGO_SIZE = { width: 200, height: 56 } as const;

function partner(id: string, name: string, kind: string): Partner {
  return { id, name, kind, alt: `${name}, ${kind}`, src: `/images/supporters/${id}.svg`, ...LOGO_SIZE };
}

export const PARTNERS: readonly Partner[] = [
  partner('northern-research-fund', 'Northern Research Fund', 'research funding body'),
  partner('wrenfield-impact', 'Wrenfield Impact', 'impact investor'),
  partner('ascent-founders-programme', 'Ascent Founders Programme', 'startup leadership programme'),
  partner('startup-lantern', 'Startup Lantern', 'startups magazine'),
  partner('fenmoor-cirrolite', 'Fenmoor University and Cirrolite Cloud', 'university and cloud partnership'),
];
