import type { AvatarImage } from '#src/content/types.ts';
import '#src/styles/carousel.css';

/**
 * A drawn avatar: a coloured circle with initials, as inline SVG (no photos of real people).
 * Decorative: the person's name is always next to it. Its weight and centring are in carousel.css.
 */
export function Avatar({ image }: { readonly image: AvatarImage }) {
  return (
    <svg className="avatar" width="48" height="48" viewBox="0 0 100 100" aria-hidden="true">
      <circle cx="50" cy="50" r="50" fill={image.background} />
      <text x="50" y="50" dy="0.35em" fill={image.foreground} fontSize={image.initials.length > 1 ? 38 : 46}>
        {image.initials}
      </text>
    </svg>
  );
}
