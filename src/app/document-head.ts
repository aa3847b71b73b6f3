import { escapeHtml } from '#src/lib/page-templates.ts';
import type { RouteDefinition } from './routes.tsx';
import {
  documentTitle,
  COMPANY_NAME,
  CONTACT_EMAIL,
  LINKS,
  PRODUCT_NAME,
  SOCIAL_LINKS,
} from '#src/config/site.ts';
import { env } from '#src/config/settings.ts';
import { CONSENT_OPEN_SCRIPT } from '#src/features/consent/consent-store.ts';

const OG_IMAGE_PATH = '/og-image.png';
const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;
/** The App Store id inside the UK listing URL, for the iOS Smart App Banner. */
const APP_STORE_ID = /id(\d+)/.exec(LINKS.appStore)?.[1] ?? '';

/** Structured data for search engines: the organisation and its app (home page only). */
function structuredData(): string {
  const organisation = {
    '@type': 'Organization',
    '@id': `${env.siteUrl}/#organization`,
    name: COMPANY_NAME,
    url: `${env.siteUrl}/`,
    logo: `${env.siteUrl}/icon-512.png`,
    email: CONTACT_EMAIL,
    sameAs: SOCIAL_LINKS.map((link) => link.href),
  };
  const app = {
    '@type': 'MobileApplication',
    name: PRODUCT_NAME,
    operatingSystem: 'iOS, Android',
    applicationCategory: 'EducationalApplication',
    publisher: { '@id': `${env.siteUrl}/#organization` },
    installUrl: [LINKS.appStore, LINKS.googlePlay],
  };
  const json = JSON.stringify({ '@context': 'https://schema.org', '@graph': [organisation, app] });
  // '<' escaped so no string can close the script element.
  return `<script type="application/ld+json">${json.replace(/</g, '\\u003c')}</script>`;
}

/** The head tags a prerendered route carries: title, description, canonical, share previews. */
export function renderHeadTags(route: RouteDefinition, path: string): string {
  const title = escapeHtml(documentTitle(route));
  const description = escapeHtml(route.description);
  const url = escapeHtml(`${env.siteUrl}${path === '/' ? '/' : path}`);
  const image = escapeHtml(`${env.siteUrl}${OG_IMAGE_PATH}`);
  const tags = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    path === '*' ? '<meta name="robots" content="noindex" />' : `<link rel="canonical" href="${url}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(PRODUCT_NAME)}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    path === '*' ? '' : `<meta property="og:url" content="${url}" />`,
    `<meta property="og:image" content="${image}" />`,
    `<meta property="og:image:width" content="${OG_IMAGE_SIZE.width}" />`,
    `<meta property="og:image:height" content="${OG_IMAGE_SIZE.height}" />`,
    `<meta property="og:locale" content="en_GB" />`,
    // X reads the title, description and image from the Open Graph tags above.
    `<meta name="twitter:card" content="summary_large_image" />`,
    APP_STORE_ID ? `<meta name="apple-itunes-app" content="app-id=${APP_STORE_ID}" />` : '',
    path === '/' ? structuredData() : '',
    `<script>${CONSENT_OPEN_SCRIPT}</script>`,
  ];
  return tags.filter(Boolean).join('\n    ');
}
