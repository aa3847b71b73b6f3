/**
 * The accessibility statement's title and description, apart from its text: the route table
 * (in the first-load chunk) needs these, while the statement itself loads with its page.
 */
import { PRODUCT_NAME } from '#src/config/product.ts';

/** The route's document title and meta description. */
export const ACCESSIBILITY_META = {
  title: 'Accessibility statement',
  description: `How accessible the ${PRODUCT_NAME} website is, how we test it against WCAG 2.2 AA, what we know does not work yet and how to report a problem.`,
} as const;
