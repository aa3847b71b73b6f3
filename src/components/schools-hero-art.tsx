/** Decorative hero art: a microphone surrounded by speech bubbles, drawn so it never shifts layout. */
export function SchoolsHeroArt() {
  return (
    <svg className="schools-hero__art" viewBox="0 0 320 280" width="320" height="280" aria-hidden="true">
      <circle cx="160" cy="150" r="118" fill="#ede7ff" />
      <circle cx="160" cy="150" r="84" fill="#ffffff" />
      <rect x="134" y="76" width="52" height="96" rx="26" fill="#5b2ee0" />
      <path d="M146 100h28M146 118h28M146 136h28" stroke="#ede7ff" strokeWidth="5" strokeLinecap="round" />
      <path
        d="M112 148a48 48 0 0 0 96 0"
        fill="none"
        stroke="#1b1530"
        strokeWidth="8"
        strokeLinecap="round"
      />
      <path d="M160 196v28M132 228h56" stroke="#1b1530" strokeWidth="8" strokeLinecap="round" />
      <g>
        <rect x="14" y="40" width="92" height="54" rx="18" fill="#ffb703" />
        <path d="M40 94l-6 18 22-18z" fill="#ffb703" />
        <path d="M32 60h56M32 76h36" stroke="#1b1530" strokeWidth="6" strokeLinecap="round" />
      </g>
      <g>
        <rect x="222" y="18" width="86" height="50" rx="18" fill="#1f7a3a" />
        <path d="M280 68l8 16-22-16z" fill="#1f7a3a" />
        <path d="M240 38h50M240 52h30" stroke="#ffffff" strokeWidth="6" strokeLinecap="round" />
      </g>
      <g>
        <rect x="232" y="176" width="78" height="46" rx="16" fill="#0b5c8a" />
        <path d="M246 222l-4 16 18-16z" fill="#0b5c8a" />
        <path
          d="M250 200c6-10 12-10 18 0s12 10 18 0"
          fill="none"
          stroke="#ffffff"
          strokeWidth="5"
          strokeLinecap="round"
        />
      </g>
    </svg>
  );
}
