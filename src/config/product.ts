/**
 * Who the site is for and from. Its own module so the route table (which site.ts reads for the
 * navigation) and the spec's messages can name the product without importing site.ts back.
 * Node-side tools load this file too: no imports.
 */

/** The product's name (elided in the spec); every visible mention reads this constant. */
export const PRODUCT_NAME = 'Podling';
export const COMPANY_NAME = 'Podling Ltd';
export const TAGLINE = 'Podcasts made by kids, with their own voice';
export const CONTACT_EMAIL = 'hello@podling.app';
