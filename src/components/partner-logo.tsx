import type { Partner, PartnerMark } from '#src/content/partners.ts';
import '#src/styles/home.css';

/** Greys only, so no supporter outshines another (the wordmarks' greys, in home.css, too). */
const INK = '#3d3d3d';

function Mark({ mark }: { mark: PartnerMark }) {
  switch (mark) {
    case 'rings':
      return (
        <g fill="none" stroke={INK} strokeWidth="4">
          <circle cx="26" cy="28" r="19" />
          <circle cx="26" cy="28" r="9" fill={INK} stroke="none" />
        </g>
      );
    case 'leaf':
      return (
        <g fill={INK}>
          <path d="M8 46 C8 22 24 8 46 8 C46 32 30 46 8 46 Z" />
          <path d="M12 42 L38 16" stroke="#ffffff" strokeWidth="3" strokeLinecap="round" />
        </g>
      );
    case 'peak':
      return (
        <g fill="none" stroke={INK} strokeWidth="5" strokeLinejoin="round" strokeLinecap="round">
          <path d="M6 46 L26 10 L46 46" />
          <path d="M16 46 L26 28 L36 46" />
        </g>
      );
    case 'page':
      return (
        <g fill="none" stroke={INK} strokeWidth="4" strokeLinecap="round">
          <rect x="8" y="8" width="36" height="40" rx="4" />
          <path d="M16 20 H36 M16 28 H36 M16 36 H28" />
        </g>
      );
    case 'cloud':
      return (
        <path
          fill={INK}
          d="M14 44 C6 44 4 36 8 32 C6 24 14 18 20 22 C22 12 36 10 40 20 C48 20 50 30 46 34 C50 40 46 44 40 44 Z"
        />
      );
  }
}

/** A supporter's wordmark drawn as greyscale SVG, announced as one image by its alt text (text styles in home.css). */
function PartnerLogo({ partner }: { partner: Partner }) {
  const [first, second] = partner.wordmark;
  return (
    <svg
      className="partner-logo"
      role="img"
      aria-label={partner.alt}
      width={partner.width}
      height={partner.height}
      viewBox="0 0 200 56"
    >
      <Mark mark={partner.mark} />
      <text
        x="58"
        y={second ? 26 : 34}
        textLength={Math.min(136, first.length * 10.5)}
        lengthAdjust="spacingAndGlyphs"
      >
        {first}
      </text>
      {second ? (
        <text
          className="partner-logo__sub"
          x="58"
          y="44"
          textLength={Math.min(136, second.length * 7)}
          lengthAdjust="spacingAndGlyphs"
        >
          {second}
        </text>
      ) : null}
    </svg>
  );
}

/** The 'Supported by' strip: a list of logos that wraps on small screens. */
export function PartnerLogoList({ partners }: { partners: readonly Partner[] }) {
  return (
    <ul className="partner-list">
      {partners.map((partner) => (
        <li key={partner.id} className="partner-item">
          <PartnerLogo partner={partner} />
        </li>
      ))}
    </ul>
  );
}
