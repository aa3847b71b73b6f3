import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { Footer } from '#src/components/footer.tsx';
import { FOOTER_TEXT } from '#src/content/footer.ts';
import { CONTACT_EMAIL, LINKS } from '#src/config/site.ts';

function renderFooter(props: { schoolsPageOn?: boolean; onOpenCookieSettings?: () => void } = {}) {
  return render(
    <MemoryRouter>
      <Footer
        onOpenCookieSettings={props.onOpenCookieSettings ?? (() => undefined)}
        schoolsPageOn={props.schoolsPageOn ?? true}
      />
    </MemoryRouter>,
  );
}

function linkLabels(name: string) {
  return within(screen.getByRole('navigation', { name }))
    .getAllByRole('link')
    .map((link) => link.textContent?.replace(' (opens in a new tab)', ''));
}

describe('Footer', () => {
  it('has the Apps, Company and Privacy & Terms columns', () => {
    renderFooter();
    expect(linkLabels('Apps')).toEqual(['iOS', 'Android']);
    expect(linkLabels('Company')).toEqual(['Home', 'Schools', 'Blog', 'About Us']);
    expect(linkLabels('Privacy & Terms')).toEqual([
      'User Guidelines',
      'Privacy',
      'Terms & Conditions',
      'Accessibility',
    ]);
    const apps = screen.getByRole('navigation', { name: 'Apps' });
    expect(within(apps).getByRole('link', { name: /iOS/ })).toHaveAttribute('href', LINKS.appStore);
    expect(within(apps).getByRole('link', { name: /Android/ })).toHaveAttribute('href', LINKS.googlePlay);
    expect(LINKS.appStore).toContain('apps.apple.com/gb/');
  });

  it('links the legal pages to their routes', () => {
    renderFooter();
    const legal = screen.getByRole('navigation', { name: 'Privacy & Terms' });
    expect(within(legal).getByRole('link', { name: 'User Guidelines' })).toHaveAttribute(
      'href',
      '/guidelines',
    );
    expect(within(legal).getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy');
    expect(within(legal).getByRole('link', { name: 'Terms & Conditions' })).toHaveAttribute('href', '/terms');
    expect(within(legal).getByRole('link', { name: 'Accessibility' })).toHaveAttribute(
      'href',
      '/accessibility',
    );
  });

  it('drops Schools when the schools page is off', () => {
    renderFooter({ schoolsPageOn: false });
    expect(linkLabels('Company')).toEqual(['Home', 'Blog', 'About Us']);
  });

  it('shows the logo, social icons, this year in the copyright and the contact mailto', () => {
    renderFooter();
    expect(screen.getByRole('link', { name: 'Podling home' })).toHaveAttribute('href', '/');
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()} `))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: CONTACT_EMAIL })).toHaveAttribute(
      'href',
      `mailto:${CONTACT_EMAIL}`,
    );
    expect(screen.getAllByRole('link', { name: /on (LinkedIn|Facebook|Instagram)/ })).toHaveLength(3);
  });

  it('reopens the cookie choice from "Cookie settings"', async () => {
    const onOpen = vi.fn();
    renderFooter({ onOpenCookieSettings: onOpen });
    await userEvent.click(screen.getByRole('button', { name: FOOTER_TEXT.cookieSettings }));
    expect(onOpen).toHaveBeenCalledTimes(1);
  });
});
