import { Link } from 'react-router-dom';
import { ABOUT } from '#src/content/about.ts';
import '#src/styles/content.css';

/** /about: who we are, why voice matters, and how the product started. */
export function AboutPage() {
  return (
    <article className="about-page" aria-labelledby="about-title">
      <header className="about-header">
        <h1 id="about-title" className="about-title">
          {ABOUT.title}
        </h1>
        <p className="about-intro">{ABOUT.intro}</p>
      </header>

      {ABOUT.sections.map((section) => (
        <section key={section.id} className="about-section" aria-labelledby={section.id}>
          <h2 id={section.id} className="about-section-title">
            {section.heading}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}

      <section className="about-cta" aria-labelledby="about-cta-title">
        <h2 id="about-cta-title" className="about-cta-title">
          {ABOUT.cta.heading}
        </h2>
        <p>{ABOUT.cta.body}</p>
        <Link className="about-cta-link" discover="none" to={ABOUT.cta.to}>
          {ABOUT.cta.linkText}
        </Link>
      </section>
    </article>
  );
}
