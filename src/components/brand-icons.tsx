// Drawn by the header and footer on every page: kept apart from the form and carousel glyphs
// (icons.tsx), which only the home and schools pages load.
import type { SocialIcon } from '#src/config/site.ts';

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
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path fill="currentColor" fillRule="evenodd" d={PATHS[icon]} />
    </svg>
  );
}

/** The product logo: a microphone mark and the name. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden="true">
      <rect width="64" height="64" rx="16" fill="#5b2ee0" />
      <rect x="24" y="12" width="16" height="26" rx="8" fill="#fff" />
      <path d="M18 32a14 14 0 0 0 28 0" fill="none" stroke="#ffb703" strokeWidth="4" strokeLinecap="round" />
      <path d="M32 46v8" stroke="#ffb703" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
