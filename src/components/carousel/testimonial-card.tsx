import { Avatar } from '#src/components/avatar.tsx';
import type { Testimonial } from '#src/content/types.ts';

/** One testimonial: the quote, and who said it with their drawn avatar. */
export function TestimonialCard({ testimonial }: { readonly testimonial: Testimonial }) {
  return (
    <figure className="testimonial-card">
      <blockquote className="testimonial-card__quote">
        <p>{testimonial.quote}</p>
      </blockquote>
      <figcaption className="testimonial-card__author">
        <Avatar image={testimonial.image} />
        <span className="testimonial-card__who">
          <span className="testimonial-card__name">{testimonial.author}</span>
          {testimonial.role ? <span className="testimonial-card__role">{testimonial.role}</span> : null}
        </span>
      </figcaption>
    </figure>
  );
}
