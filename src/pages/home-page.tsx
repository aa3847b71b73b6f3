import { WAITLIST_ANCHOR_ID } from '@/config/constants';
import { HOME } from '@/content/home';

/** Placeholder until the home page sections land (issue 4). */
export function HomePage() {
  return (
    <>
      <section className="section">
        <h1>{HOME.hero.headline}</h1>
      </section>
      <section id={WAITLIST_ANCHOR_ID} className="section" aria-labelledby="waitlist-heading">
        <h2 id="waitlist-heading">Stay in the loop</h2>
      </section>
    </>
  );
}
