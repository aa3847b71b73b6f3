import { SocialGlyph } from './brand-icons.tsx';
import { EXTERNAL_LINK_PROPS, SOCIAL_LINKS } from '#src/config/site.ts';

/** Icon-only links to the product's social pages; each has an accessible name. */
export function SocialLinks({ className = 'social-links' }: { className?: string }) {
  return (
    <ul className={className}>
      {SOCIAL_LINKS.map((link) => (
        <li key={link.href}>
          <a
            className="social-links__link"
            href={link.href}
            aria-label={`${link.label} (opens in a new tab)`}
            {...EXTERNAL_LINK_PROPS}
          >
            <SocialGlyph icon={link.icon} />
          </a>
        </li>
      ))}
    </ul>
  );
}
