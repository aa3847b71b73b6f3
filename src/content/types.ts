/** Shapes of the site's static content. Content is data; components render it. */

/** A drawn avatar: no photos of real people. Rendered as SVG by the Avatar component. */
export type AvatarImage = {
  readonly initials: string;
  readonly background: string;
  readonly foreground: string;
};

/** Spec section 3: static, never user-submitted at runtime. */
export type Testimonial = {
  readonly id: number;
  readonly quote: string;
  readonly author: string;
  readonly role?: string;
  readonly image: AvatarImage;
};

export type LegalSection = {
  readonly heading: string;
  readonly paragraphs: readonly string[];
  readonly list?: readonly string[];
};

export type LegalDocument = {
  readonly title: string;
  readonly lastUpdated: string;
  readonly intro: string;
  readonly sections: readonly LegalSection[];
};
