/**
 * The mascot: a cheerful microphone waving hello, drawn inline as SVG so it arrives with the
 * prerendered HTML (no request, nothing to prioritise over it) and scales without blurring. Its
 * intrinsic size keeps the hero from shifting while it paints.
 */
export function Mascot({ label, className }: { label: string; className?: string }) {
  return (
    <svg
      className={className}
      role="img"
      aria-label={label}
      viewBox="0 0 320 360"
      width={320}
      height={360}
      xmlns="http://www.w3.org/2000/svg"
    >
      {/* Backdrop blob and sound waves */}
      <path
        d="M160 22c78 0 140 48 146 124 7 84-44 170-146 178C62 332 8 262 14 178 20 92 82 22 160 22z"
        fill="#ede7ff"
      />
      <g fill="none" stroke="#ffb703" strokeWidth="8" strokeLinecap="round">
        <path d="M52 104c-14 20-14 48 0 68" />
        <path d="M30 88c-24 32-24 68 0 100" />
      </g>
      <g fill="none" stroke="#5b2ee0" strokeWidth="8" strokeLinecap="round" opacity="0.55">
        <path d="M270 96c10 14 10 32 0 46" />
      </g>

      {/* Stand */}
      <path d="M160 262v46" stroke="#1b1530" strokeWidth="12" strokeLinecap="round" />
      <rect x="112" y="304" width="96" height="18" rx="9" fill="#1b1530" />
      <path
        d="M96 196c0 38 28 70 64 70s64-32 64-70"
        fill="none"
        stroke="#1b1530"
        strokeWidth="10"
        strokeLinecap="round"
      />

      {/* Waving arm (left) and resting arm (right), then their hands */}
      <g fill="none" stroke="#5b2ee0" strokeWidth="12" strokeLinecap="round">
        <path d="M104 178c-22-6-40-24-44-52" />
        <path d="M216 182c18 6 30 20 32 38" />
      </g>
      <g fill="#ffb703" stroke="#1b1530" strokeWidth="4">
        <circle cx="58" cy="116" r="15" />
        <circle cx="249" cy="226" r="13" />
      </g>

      {/* Microphone head: grille capsule with a band */}
      <rect x="100" y="60" width="120" height="170" rx="60" fill="#5b2ee0" stroke="#1b1530" strokeWidth="6" />
      <path d="M106 112h108" stroke="#4321b0" strokeWidth="3" />
      <g fill="#7f5cf0">
        <circle cx="132" cy="86" r="4" />
        <circle cx="148" cy="78" r="4" />
        <circle cx="164" cy="76" r="4" />
        <circle cx="180" cy="78" r="4" />
        <circle cx="196" cy="86" r="4" />
        <circle cx="140" cy="98" r="4" />
        <circle cx="156" cy="94" r="4" />
        <circle cx="172" cy="94" r="4" />
        <circle cx="188" cy="98" r="4" />
      </g>
      <rect x="100" y="196" width="120" height="16" fill="#ffb703" stroke="#1b1530" strokeWidth="5" />

      {/* Face */}
      <ellipse cx="140" cy="146" rx="11" ry="13" fill="#ffffff" />
      <ellipse cx="180" cy="146" rx="11" ry="13" fill="#ffffff" />
      <circle cx="142" cy="149" r="6" fill="#1b1530" />
      <circle cx="182" cy="149" r="6" fill="#1b1530" />
      <circle cx="144" cy="146" r="2" fill="#ffffff" />
      <circle cx="184" cy="146" r="2" fill="#ffffff" />
      <circle cx="124" cy="170" r="8" fill="#ff8fb1" opacity="0.8" />
      <circle cx="196" cy="170" r="8" fill="#ff8fb1" opacity="0.8" />
      <path
        d="M146 172c8 10 20 10 28 0"
        fill="#1b1530"
        stroke="#1b1530"
        strokeWidth="4"
        strokeLinejoin="round"
      />

      {/* Headphones */}
      <path
        d="M96 132c0-52 30-84 64-84s64 32 64 84"
        fill="none"
        stroke="#1b1530"
        strokeWidth="8"
        strokeLinecap="round"
      />
      <g fill="#ffb703" stroke="#1b1530" strokeWidth="4">
        <rect x="84" y="124" width="22" height="40" rx="10" />
        <rect x="214" y="124" width="22" height="40" rx="10" />
      </g>
    </svg>
  );
}
