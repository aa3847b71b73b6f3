import type { AvatarImage } from '#src/content/types.ts';
import '#src/styles/carousel.css';

type AvatarProps = {
  readonly image: AvatarImage;
  /** Rendered width and height in CSS pixels. */
  readonly size?: number;
  /** Hide from assistive technology when the person's name is already next to it. */
  readonly decorative?: boolean;
};

/** A drawn avatar: a coloured circle with initials, as inline SVG (no photos of real people). */
export function Avatar({ image, size = 56, decorative = false }: AvatarProps) {
  const a11yProps = decorative
    ? ({ 'aria-hidden': true } as const)
    : ({ role: 'img', 'aria-label': image.alt } as const);
  return (
    <svg
      className="avatar"
      width={size}
      height={size}
      viewBox="0 0 100 100"
      xmlns="http://www.w3.org/2000/svg"
      focusable="false"
      {...a11yProps}
    >
      <circle cx="50" cy="50" r="50" fill={image.background} />
      <text
        x="50"
        y="50"
        dy="0.35em"
        textAnchor="middle"
        fill={image.foreground}
        fontFamily="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
        fontSize={image.initials.length > 1 ? 38 : 46}
        fontWeight="700"
      >
        {image.initials}
      </text>
    </svg>
  );
}
