import type { Partner } from '#src/content/partners.ts';
import '#src/styles/home.css';

/** The 'Supported by' strip: each supporter's logo a lazy image named by its alt text, in a list that wraps on small screens. */
export function PartnerLogoList({ partners }: { partners: readonly Partner[] }) {
  return (
    <ul className="partner-list">
      {partners.map((partner) => (
        <li key={partner.id} className="partner-item">
          <img
            className="partner-logo"
            src={partner.src}
            alt={partner.alt}
            width={partner.width}
            height={partner.height}
            loading="lazy"
            decoding="async"
          />
        </li>
      ))}
    </ul>
  );
}
