import { COMPANY_NAME } from '#src/config/site.ts';

/** The footer's own words (src/components/footer.tsx). */
export const FOOTER_TEXT = {
  cookieSettings: 'Cookie settings',
  contact: 'Contact us:',
  copyright: (year: number) => `© ${year} ${COMPANY_NAME}. All rights reserved.`,
} as const;
