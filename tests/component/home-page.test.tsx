import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WAITLIST_ANCHOR_ID } from '#src/config/constants.ts';
import { MESSAGES } from '#src/config/messages.ts';
import { LINKS, PRODUCT_NAME } from '#src/config/site.ts';
import { HOME } from '#src/content/home.ts';
import { PARTNERS } from '#src/content/partners.ts';
import { trackStoreClick } from '#src/lib/analytics.ts';
import { IOS_POPUP_TEXT } from '#src/components/ios-issue-popup.tsx';
import { HOME_VIDEO_HEADING, HomePage, type HomePageProps } from '#src/pages/home-page.tsx';

vi.mock('#src/lib/analytics.ts', () => ({ trackStoreClick: vi.fn(async () => undefined) }));
vi.mock('#src/lib/forms/send-form.ts', async (original) => ({
  ...(await original<object>()),
  addToWaitlist: vi.fn(async () => ({ success: true })),
}));
// The carousel has its own tests; here only its place in the page matters.
vi.mock('#src/components/carousel/testimonial-carousel.tsx', () => ({
  TestimonialCarousel: ({ heading, headingId }: { heading: string; headingId: string }) => (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
    </section>
  ),
}));

// jsdom cannot open a new tab: stop the default action after React has handled the click.
const stopNavigation = (event: MouseEvent) => {
  if ((event.target as Element).closest('a')) event.preventDefault();
};
beforeEach(() => window.addEventListener('click', stopNavigation));
afterEach(() => window.removeEventListener('click', stopNavigation));

const ALL_ON: HomePageProps = {
  appStoreButton: true,
  googlePlayButton: true,
  schoolsPage: true,
  tempIssuePopup: false,
};

function renderHome(props: HomePageProps = {}) {
  const user = userEvent.setup();
  const view = render(
    <MemoryRouter>
      <HomePage {...ALL_ON} {...props} />
    </MemoryRouter>,
  );
  return { user, ...view };
}

const appStoreLink = () => screen.queryByRole('link', { name: /App Store/ });
const googlePlayLink = () => screen.queryByRole('link', { name: /Google Play/ });
const schoolsLink = () => screen.queryByRole('link', { name: `Explore ${PRODUCT_NAME} for Schools` });

describe('HomePage layout', () => {
  it('has one h1, the hero headline, after the Available Now badge', () => {
    renderHome();
    const headings = screen.getAllByRole('heading', { level: 1 });
    expect(headings).toHaveLength(1);
    expect(headings[0]).toHaveTextContent(HOME.hero.headline);
    const badge = screen.getByText(HOME.hero.badge);
    expect(badge.compareDocumentPosition(headings[0]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    for (const paragraph of HOME.hero.intro) expect(screen.getByText(paragraph)).toBeVisible();
  });

  it('shows the drawn mascot with its text alternative and an explicit size', () => {
    renderHome();
    const mascot = screen.getByRole('img', { name: HOME.hero.mascotAlt });
    expect(mascot.tagName.toLowerCase()).toBe('svg');
    expect(mascot).toHaveAttribute('width');
    expect(mascot).toHaveAttribute('height');
  });

  it('puts the sections in the spec’s order', () => {
    renderHome();
    const order = screen
      .getAllByRole('heading', { level: 1 })
      .concat(screen.getAllByRole('heading', { level: 2 }));
    const sorted = [...order].sort((a, b) =>
      a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
    );
    expect(sorted.map((heading) => heading.textContent)).toEqual([
      HOME.hero.headline,
      HOME.schoolsCard.heading,
      HOME_VIDEO_HEADING,
      HOME.waitlist.heading,
      HOME.carouselHeading,
      HOME.supportedByHeading,
    ]);
  });

  it('the waitlist section has the anchor id and holds the form', () => {
    renderHome();
    const section = screen.getByRole('region', { name: HOME.waitlist.heading });
    expect(section).toHaveAttribute('id', WAITLIST_ANCHOR_ID);
    expect(within(section).getByRole('form', { name: HOME.waitlist.heading })).toBeInTheDocument();
    expect(within(section).getAllByRole('checkbox')).toHaveLength(3);
  });

  it('the video starts as a click-to-load facade with a named play button', () => {
    renderHome();
    const section = screen.getByRole('region', { name: HOME_VIDEO_HEADING });
    expect(within(section).getByRole('button', { name: /play video/i })).toBeInTheDocument();
    expect(section.querySelector('iframe')).toBeNull();
  });

  it('the supporters strip lists every supporter’s logo by name', () => {
    renderHome();
    const section = screen.getByRole('region', { name: HOME.supportedByHeading });
    for (const partner of PARTNERS)
      expect(within(section).getByRole('img', { name: partner.alt })).toBeVisible();
  });

  it('prerenders with react-dom/server, without the popup', () => {
    const html = renderToString(
      <MemoryRouter>
        <HomePage {...ALL_ON} tempIssuePopup />
      </MemoryRouter>,
    );
    expect(html).toContain(HOME.hero.headline);
    expect(html).toContain(`id="${WAITLIST_ANCHOR_ID}"`);
    expect(html).not.toContain('<dialog');
  });
});

describe('store buttons', () => {
  it('both show with the flags on, opening the store listings in a new tab without opener', () => {
    renderHome();
    expect(appStoreLink()).toHaveAttribute('href', LINKS.appStore);
    expect(googlePlayLink()).toHaveAttribute('href', LINKS.googlePlay);
    for (const link of [appStoreLink(), googlePlayLink()]) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      expect(link).toHaveAccessibleName(/opens in a new tab/);
    }
  });

  it('APP_STORE_BUTTON off hides only the App Store button', () => {
    renderHome({ appStoreButton: false });
    expect(appStoreLink()).toBeNull();
    expect(googlePlayLink()).toBeInTheDocument();
  });

  it('GOOGLE_PLAY_BUTTON off hides only the Google Play button', () => {
    renderHome({ googlePlayButton: false });
    expect(googlePlayLink()).toBeNull();
    expect(appStoreLink()).toBeInTheDocument();
  });

  it('both off leaves no store list behind', () => {
    const { container } = renderHome({ appStoreButton: false, googlePlayButton: false });
    expect(container.querySelector('.store-buttons')).toBeNull();
  });

  it('records each click with its platform and the hero location', async () => {
    const { user } = renderHome();
    await user.click(appStoreLink()!);
    expect(trackStoreClick).toHaveBeenLastCalledWith('iOS', 'hero_section');
    await user.click(googlePlayLink()!);
    expect(trackStoreClick).toHaveBeenLastCalledWith('Android', 'hero_section');
    expect(trackStoreClick).toHaveBeenCalledTimes(2);
  });
});

describe('schools card', () => {
  it('links to /schools with SCHOOLS_PAGE on', () => {
    renderHome();
    expect(schoolsLink()).toHaveAttribute('href', '/schools');
    expect(screen.getByRole('heading', { name: HOME.schoolsCard.heading })).toBeInTheDocument();
  });

  it('is absent with SCHOOLS_PAGE off', () => {
    renderHome({ schoolsPage: false });
    expect(schoolsLink()).toBeNull();
    expect(screen.queryByRole('heading', { name: HOME.schoolsCard.heading })).toBeNull();
  });
});

describe('iOS-issue popup', () => {
  const dialog = () => screen.queryByRole('dialog');

  it('with TEMP_ISSUE_POPUP off, the App Store button opens no popup', async () => {
    const { user } = renderHome({ tempIssuePopup: false });
    await user.click(appStoreLink()!);
    expect(dialog()).toBeNull();
  });

  // Focus moving in and back, Tab kept inside and Escape are the browser's (a native modal
  // <dialog>): tests/e2e/home.spec.ts checks them in one.
  it('with the flag on, the App Store button opens a modal dialog with the spec’s text', async () => {
    const { user } = renderHome({ tempIssuePopup: true });
    expect(dialog()).toBeNull();
    await user.click(appStoreLink()!);
    // The popup's code is fetched on demand.
    await screen.findByRole('dialog');
    const popup = dialog()!;
    expect(popup).toHaveAttribute('aria-modal', 'true');
    expect(popup).toHaveAccessibleName(IOS_POPUP_TEXT.title);
    expect(popup).toHaveAccessibleDescription(MESSAGES.iosPopupText);
    expect(within(popup).getByText(MESSAGES.iosPopupText)).toBeVisible();
    expect(within(popup).getByRole('button', { name: MESSAGES.iosPopupDismiss })).toBeInTheDocument();
    expect(trackStoreClick).toHaveBeenCalledWith('iOS', 'hero_section');
  });

  it.each([
    ['the X', () => screen.getByRole('button', { name: 'Close' })],
    ['Dismiss', () => screen.getByRole('button', { name: MESSAGES.iosPopupDismiss })],
  ])('%s closes it', async (_name, control) => {
    const { user } = renderHome({ tempIssuePopup: true });
    await user.click(appStoreLink()!);
    // The popup's code is fetched on demand.
    await screen.findByRole('dialog');
    await user.click(control());
    expect(dialog()).toBeNull();
  });

  it('Download the app continues to the App Store in a new tab, records the popup click and closes', async () => {
    const { user } = renderHome({ tempIssuePopup: true });
    await user.click(appStoreLink()!);
    // The popup's code is fetched on demand.
    await screen.findByRole('dialog');
    const download = within(dialog()!).getByRole('link', {
      name: new RegExp(`^${MESSAGES.iosPopupDownload}`),
    });
    expect(download).toHaveAttribute('href', LINKS.appStore);
    expect(download).toHaveAttribute('target', '_blank');
    expect(download).toHaveAttribute('rel', 'noopener noreferrer');
    await user.click(download);
    expect(trackStoreClick).toHaveBeenLastCalledWith('iOS', 'popup');
    expect(dialog()).toBeNull();
  });

  it('the Google Play button never opens it', async () => {
    const { user } = renderHome({ tempIssuePopup: true });
    await user.click(googlePlayLink()!);
    expect(dialog()).toBeNull();
  });
});
