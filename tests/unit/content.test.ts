import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADULT_MIN_AGE, DATA_RETENTION_MONTHS, PARENTAL_CONSENT_UNDER_AGE } from '#src/config/constants.ts';
import { COMPANY_NAME, CONTACT_EMAIL, PRODUCT_NAME, ROUTE_PATHS } from '#src/config/site.ts';
import { ABOUT } from '#src/content/about.ts';
import { HOME, WAITLIST_INTEREST_OPTIONS } from '#src/content/home.ts';
import { GUIDELINES } from '#src/content/legal/guidelines.ts';
import { PRIVACY } from '#src/content/legal/privacy.ts';
import { TERMS } from '#src/content/legal/terms.ts';
import { PARTNERS } from '#src/content/partners.ts';
import { SCHOOLS } from '#src/content/schools.ts';
import { HOME_TESTIMONIALS, SCHOOLS_TESTIMONIALS } from '#src/content/testimonials.ts';
import type { LegalDocument } from '#src/content/types.ts';

/** WCAG 2.x relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1, 4).map((pair) => {
    const channel = parseInt(pair, 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** All visible text of a legal document, whitespace-normalised. */
function textOf(document: LegalDocument): string {
  return [
    document.title,
    document.intro,
    ...document.sections.flatMap((section) => [
      section.heading,
      ...section.paragraphs,
      ...(section.list ?? []),
    ]),
  ]
    .join(' ')
    .replace(/\s+/g, ' ');
}

describe('contrast helper', () => {
  it('matches known WCAG values', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
});

describe('testimonials', () => {
  const all = [...HOME_TESTIMONIALS, ...SCHOOLS_TESTIMONIALS];

  it('lists the spec’s 16 on the home page and 5 on the schools page', () => {
    expect(HOME_TESTIMONIALS).toHaveLength(16);
    expect(SCHOOLS_TESTIMONIALS).toHaveLength(5);
  });

  it('has unique numeric ids across both lists', () => {
    const ids = all.map((testimonial) => testimonial.id);
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has a quote of one to three sentences, an author and initials for every avatar', () => {
    for (const testimonial of all) {
      expect(testimonial.quote.trim().length).toBeGreaterThan(20);
      const sentences = testimonial.quote.split(/[.!?]+(?=\s|$)/).filter((part) => part.trim().length > 0);
      expect(sentences.length, testimonial.quote).toBeGreaterThanOrEqual(1);
      expect(sentences.length, testimonial.quote).toBeLessThanOrEqual(3);
      expect(testimonial.author.trim()).not.toBe('');
      expect(testimonial.image.initials).toMatch(/^\p{Lu}{1,2}$/u);
    }
  });

  it('draws every avatar with text contrast of at least 4.5:1', () => {
    for (const { image, author } of all) {
      expect(contrastRatio(image.background, image.foreground), author).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('covers parents, teachers, assistant heads and beta testers aged 9 to 11 on the home page', () => {
    const roles = HOME_TESTIMONIALS.map((testimonial) => testimonial.role ?? '');
    expect(roles.some((role) => /parent|mum|dad/i.test(role))).toBe(true);
    expect(roles.some((role) => /teacher/i.test(role))).toBe(true);
    expect(roles.some((role) => /assistant head/i.test(role))).toBe(true);
    const testers = HOME_TESTIMONIALS.filter((testimonial) => testimonial.role === 'Beta tester');
    expect(testers.length).toBeGreaterThan(0);
    for (const tester of testers) {
      const age = Number(/,\s*(\d+)$/.exec(tester.author)?.[1]);
      expect(age).toBeGreaterThanOrEqual(9);
      expect(age).toBeLessThanOrEqual(11);
    }
  });

  it('comes from school staff on the schools page', () => {
    for (const testimonial of SCHOOLS_TESTIMONIALS) {
      expect(testimonial.role).toMatch(/teacher|head|senco|lead/i);
    }
  });
});

describe('partners', () => {
  it('lists the five supporters from the spec, each with alt text and an explicit size', () => {
    expect(PARTNERS).toHaveLength(5);
    expect(PARTNERS.map((partner) => partner.kind)).toEqual([
      'research funding body',
      'impact investor',
      'startup leadership programme',
      'startups magazine',
      'university and cloud partnership',
    ]);
    for (const partner of PARTNERS) {
      expect(partner.alt).toBe(`${partner.name}, ${partner.kind}`);
      expect(partner.width).toBeGreaterThan(0);
      expect(partner.height).toBeGreaterThan(0);
    }
    expect(new Set(PARTNERS.map((partner) => partner.id)).size).toBe(5);
  });

  it('has each logo as an SVG file in public/ of the size the page reserves for it', () => {
    for (const partner of PARTNERS) {
      const svg = readFileSync(join('public', partner.src), 'utf8');
      expect(svg, partner.id).toContain(`width="${partner.width}" height="${partner.height}"`);
    }
  });
});

describe('page copy', () => {
  it('uses the product name in the home headings, button and interest options', () => {
    expect(HOME.hero.badge).toBe('Available Now');
    expect(HOME.schoolsCard.buttonLabel).toBe(`Explore ${PRODUCT_NAME} for Schools`);
    expect(HOME.schoolsCard.to).toBe(ROUTE_PATHS.schools);
    expect(HOME.waitlist.heading).toBe('Stay in the loop');
    expect(HOME.carouselHeading).toBe(`They use ${PRODUCT_NAME}`);
    expect(HOME.supportedByHeading).toBe('Supported by');
    expect(WAITLIST_INTEREST_OPTIONS).toEqual([
      { id: 'use', label: `Use ${PRODUCT_NAME}`, description: 'Early access for my child' },
      { id: 'invest', label: `Invest in ${PRODUCT_NAME}`, description: 'Investment opportunities' },
      {
        id: 'partner',
        label: `Partner with ${PRODUCT_NAME}`,
        description: 'I represent a school, brand or platform',
      },
    ]);
    const intro = HOME.hero.intro.join(' ');
    expect(intro).toMatch(/confidence/i);
    expect(intro).toMatch(/AI answers/);
    expect(intro).toMatch(/screen time into skill time/);
  });

  it('has the schools hero, four distinct benefits and the form and call headings', () => {
    expect(SCHOOLS.hero.title).toBe('Give a Voice to Every Learner');
    expect(SCHOOLS.benefits.heading).toBe(`Why Schools Choose ${PRODUCT_NAME}`);
    expect(SCHOOLS.benefits.cards.map((card) => card.id)).toEqual([
      'writing-barriers',
      'student-voice',
      'language-learning',
      'accessible-writing',
    ]);
    expect(new Set(SCHOOLS.benefits.cards.map((card) => card.icon)).size).toBe(4);
    expect(SCHOOLS.quote.heading).toBe('Get a Quote');
    expect(SCHOOLS.call.heading).toBe('Book a Call with Us');
  });

  it('has the About sections and call to action', () => {
    expect(ABOUT.title).toBe('About Us');
    expect(ABOUT.sections.map((section) => section.heading)).toEqual([
      'Helping Children Grow Through Voice',
      'How It Started',
    ]);
    expect(ABOUT.cta).toMatchObject({ heading: 'Start Your Journey', linkText: 'Get Started Now', to: '/' });
  });
});

describe('legal texts', () => {
  const privacy = textOf(PRIVACY);
  const terms = textOf(TERMS);
  const guidelines = textOf(GUIDELINES);
  const all = [privacy, terms, guidelines].join(' ');

  it('have the right titles and name the company, product and contact address', () => {
    expect([GUIDELINES.title, PRIVACY.title, TERMS.title]).toEqual([
      'User Guidelines',
      'Privacy Policy',
      'Terms & Conditions',
    ]);
    for (const text of [privacy, terms]) {
      expect(text).toContain(COMPANY_NAME);
      expect(text).toContain(CONTACT_EMAIL);
      expect(text).toContain(PRODUCT_NAME);
    }
    expect(guidelines).toContain(CONTACT_EMAIL);
  });

  it('state the data each account and podcast holds', () => {
    expect(privacy).toContain(
      'Adult accounts (parents, guardians and teachers) hold a first name, last name and email address',
    );
    expect(privacy).toContain(
      'Child accounts hold the child’s month and year of birth and an optional alias',
    );
    expect(privacy).toContain(
      'Podcasts have a title, an image, a description, optional background music and a cover image',
    );
    expect(terms).toContain('An adult account holds a first name, last name and email address');
    expect(terms).toContain('month and year of birth and an optional alias');
  });

  it('describe the publishing flow in order, with publication only after both approvals', () => {
    for (const text of [privacy, terms, guidelines]) {
      const steps = ['Recording:', 'Parent approval:', 'Moderator review:', 'Publication:'].map((step) =>
        text.indexOf(step),
      );
      expect(steps.every((position) => position >= 0)).toBe(true);
      expect([...steps].sort((a, b) => a - b)).toEqual(steps);
      expect(text).toContain('private link');
      expect(text).toContain('appears on the Explore page only after both approvals');
    }
  });

  it('state the age rules and every verified parental consent method', () => {
    expect(terms).toContain(`Adults must be ${ADULT_MIN_AGE} or older`);
    for (const text of [privacy, terms]) {
      expect(text).toContain(
        `Parents or guardians create and manage accounts for children under ${PARENTAL_CONSENT_UNDER_AGE}`,
      );
      expect(text).toContain('verified parental consent');
      expect(text).toContain('small refundable card transaction');
      expect(text).toContain('signed consent form');
      expect(text).toContain('confirmation from a teacher or the school');
    }
    expect(all).toContain('Children under 13 need verified parental consent');
  });

  it('state the retention period, the UK legal framework and the consent rule for analytics', () => {
    expect(privacy).toContain(`${DATA_RETENTION_MONTHS} months after last activity`);
    expect(privacy).toContain('UK GDPR');
    expect(privacy).toContain('Data Protection Act 2018');
    expect(privacy).toContain('Age Appropriate Design Code');
    expect(privacy).toContain('Privacy and Electronic Communications Regulations (PECR)');
    expect(privacy).toContain('Analytics cookies are set only with your consent');
  });

  it('mention moderators in every document', () => {
    for (const text of [privacy, terms, guidelines]) expect(text).toMatch(/moderators?\b/i);
  });

  it('keep children’s personal information out of recordings', () => {
    expect(guidelines).toContain('Do not say the name of your school');
    expect(guidelines).toContain('your address');
    expect(guidelines).toMatch(/kind/i);
  });
});
