import { render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { buildRoutes, preloadRoute } from '#src/app/routes.tsx';
import { Avatar } from '#src/components/avatar.tsx';
import { formatLegalDate, legalSectionId } from '#src/components/legal-document.tsx';
import { PartnerLogoList } from '#src/components/partner-logo.tsx';
import { CONTACT_EMAIL } from '#src/config/site.ts';
import { PARTNERS } from '#src/content/partners.ts';
import { HOME_TESTIMONIALS } from '#src/content/testimonials.ts';
import { AboutPage } from '#src/pages/about-page.tsx';
import { GuidelinesPage } from '#src/pages/guidelines-page.tsx';
import { PrivacyPage } from '#src/pages/privacy-page.tsx';
import { TermsPage } from '#src/pages/terms-page.tsx';

function renderAt(path: string, page: ReactElement) {
  return render(<MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>);
}

/** Every content page of the route table (src/config/site.ts), as the app renders it. */
const CONTENT_ROUTES = buildRoutes({ SCHOOLS_PAGE: true }).filter((route) => route.kind === 'content');

beforeAll(async () => {
  await Promise.all(CONTENT_ROUTES.map((route) => preloadRoute(CONTENT_ROUTES, route.path)));
});

it('the route table has content pages to check', () => {
  expect(CONTENT_ROUTES.map((route) => route.path)).toContain('/privacy');
});

describe.each(CONTENT_ROUTES)('$path', ({ path, heading, Page }) => {
  it(`renders exactly one h1, '${heading}'`, () => {
    renderAt(path, <Page />);
    const headings = screen.getAllByRole('heading', { level: 1 });
    expect(headings).toHaveLength(1);
    expect(headings[0]).toHaveAccessibleName(heading);
  });

  it('renders to static HTML with react-dom/server', () => {
    const html = renderToString(
      <MemoryRouter initialEntries={[path]}>
        <Page />
      </MemoryRouter>,
    );
    expect(html).toContain(heading.replace('&', '&amp;'));
  });
});

describe('About page', () => {
  it('has both story sections and the call to action linking home', () => {
    renderAt('/about', <AboutPage />);
    expect(
      screen.getByRole('heading', { level: 2, name: 'Helping Children Grow Through Voice' }),
    ).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'How It Started' })).toBeVisible();
    const cta = screen.getByRole('region', { name: 'Start Your Journey' });
    expect(within(cta).getByRole('link', { name: 'Get Started Now' })).toHaveAttribute('href', '/');
  });
});

describe('legal pages', () => {
  it('show the last updated date and a contents list linking to every section', () => {
    renderAt('/privacy', <PrivacyPage />);
    expect(screen.getByText(/Last updated:/)).toHaveTextContent('Last updated: 2 June 2025');
    const contents = screen.getByRole('navigation', { name: 'On this page' });
    const links = within(contents).getAllByRole('link');
    const sectionHeadings = screen
      .getAllByRole('heading', { level: 2 })
      .filter((heading) => heading.id !== 'legal-toc-title');
    expect(links).toHaveLength(sectionHeadings.length);
    links.forEach((link, index) => {
      expect(link).toHaveAttribute('href', `#${sectionHeadings[index]?.id}`);
    });
  });

  it('privacy policy shows the data held, retention, consent methods and publishing flow', () => {
    renderAt('/privacy', <PrivacyPage />);
    expect(screen.getByText(/hold a first name, last name and email address/)).toBeVisible();
    expect(screen.getByText(/month and year of birth and an optional alias/)).toBeVisible();
    expect(
      screen.getByText(/a title, an image, a description, optional background music and a cover image/),
    ).toBeVisible();
    expect(screen.getByText(/24 months after last activity/)).toBeVisible();
    expect(screen.getByText(/not confirmed within 30 days, we delete it/)).toBeVisible();
    expect(screen.getByText(/keep your email address marked as unsubscribed/)).toBeVisible();
    expect(
      screen.getByText(/Parents or guardians create and manage accounts for children under 13/),
    ).toBeVisible();
    expect(screen.getByText(/small refundable card transaction/)).toBeVisible();
    expect(screen.getByText(/signed consent form/)).toBeVisible();
    expect(screen.getByText(/confirmation from a teacher or the school/)).toBeVisible();
    expect(screen.getByText(/private link/)).toBeVisible();
    expect(screen.getByText(/Explore page only after both approvals/)).toBeVisible();
    expect(screen.getByText(/analytics cookies are set only with your consent/i)).toBeVisible();
    const mailLinks = screen.getAllByRole('link', { name: CONTACT_EMAIL });
    expect(mailLinks.length).toBeGreaterThan(0);
    for (const link of mailLinks) expect(link).toHaveAttribute('href', `mailto:${CONTACT_EMAIL}`);
  });

  it('terms show the adult age rule and the parental consent rule', () => {
    renderAt('/terms', <TermsPage />);
    expect(screen.getByText(/Adults must be 18 or older/)).toBeVisible();
    expect(screen.getByText(/Children under 13 need verified parental consent/)).toBeVisible();
    expect(screen.getByText(/Moderator review:/)).toBeVisible();
  });

  it('guidelines show the safety rules and the publishing flow', () => {
    renderAt('/guidelines', <GuidelinesPage />);
    expect(screen.getByRole('heading', { level: 2, name: 'Be kind' })).toBeVisible();
    expect(screen.getByText(/Do not say the name of your school/)).toBeVisible();
    expect(screen.getByText(/^Parent approval:/)).toBeVisible();
    expect(screen.getByText(/Explore page only after both approvals/)).toBeVisible();
  });
});

describe('shared pieces', () => {
  it('formats dates and section anchors predictably', () => {
    expect(formatLegalDate('2025-06-02')).toBe('2 June 2025');
    expect(formatLegalDate('not a date')).toBe('not a date');
    expect(legalSectionId('Children’s accounts and parental consent')).toBe(
      'childrens-accounts-and-parental-consent',
    );
  });

  it('draws an avatar as a decorative circle with initials', () => {
    const testimonial = HOME_TESTIMONIALS[0];
    if (!testimonial) throw new Error('no testimonial');
    const { container } = render(<Avatar image={testimonial.image} />);
    const avatar = container.querySelector('svg');
    expect(avatar).toHaveAttribute('aria-hidden', 'true');
    expect(avatar).toHaveAttribute('width', '48');
    expect(avatar).toHaveTextContent(testimonial.image.initials);
  });

  it('lists the five supporter logos with alt text and explicit sizes', () => {
    render(<PartnerLogoList partners={PARTNERS} />);
    const logos = within(screen.getByRole('list')).getAllByRole('img');
    expect(logos).toHaveLength(5);
    expect(screen.getByRole('img', { name: 'Northern Research Fund, research funding body' })).toBeVisible();
    for (const logo of logos) {
      expect(logo).toHaveAttribute('width');
      expect(logo).toHaveAttribute('height');
    }
  });
});
