import type { ReactNode } from 'react';
import { TemplateRegion } from '#src/components/form/form-answer.tsx';
import { StoreButtons, type StoreButtonsProps } from '#src/components/store-buttons.tsx';
import { WAITLIST_ANCHOR_ID } from '#src/config/constants.ts';
import { flags } from '#src/config/flags.ts';
import { EMAIL_COPY, WAITLIST_CONSENT_STATEMENT } from '#src/config/messages.ts';
import { CALENDAR, EXTERNAL_LINK_PROPS, ROUTE_PATHS } from '#src/config/site.ts';
import { LINK_PAGE_REGION_ATTRIBUTE, linkPageSlot, type LinkPageRegion } from '#src/lib/page-templates.ts';

const copy = EMAIL_COPY.linkPages;

const EMAIL_LINK_HEADING_ID = 'email-link-heading';

/** A part of the template that only some pages keep. */
const Region = ({ region, children }: { region: LinkPageRegion; children: ReactNode }) => (
  <TemplateRegion attribute={LINK_PAGE_REGION_ATTRIBUTE} region={region}>
    {children}
  </TemplateRegion>
);

const SIGN_UP_HREF = `${ROUTE_PATHS.home}#${WAITLIST_ANCHOR_ID}`;

/**
 * The page an email's link opens, as a template: every part any link's page can show, between
 * region markers, and slots for one answer's words (src/server/links.ts keeps and fills them).
 * Rendered once at build time inside the Layout, never hydrated: its buttons are plain forms.
 */
export function EmailLinkPage({
  appStoreButton = flags.APP_STORE_BUTTON,
  googlePlayButton = flags.GOOGLE_PLAY_BUTTON,
}: Pick<StoreButtonsProps, 'appStoreButton' | 'googlePlayButton'>) {
  return (
    <section className="link-page" aria-labelledby={EMAIL_LINK_HEADING_ID}>
      <div className="section link-page__inner">
        <h1 id={EMAIL_LINK_HEADING_ID} className="link-page__title">
          {linkPageSlot('heading')}
        </h1>
        <p className="link-page__lead">{linkPageSlot('body')}</p>
        {linkPageSlot('rows')}
        <Region region="ask">
          <form method="post" action={linkPageSlot('action')} className="link-page__form">
            <input type="hidden" name="token" value={linkPageSlot('token')} />
            <button type="submit" className="button button--primary">
              {linkPageSlot('button')}
            </button>
          </form>
        </Region>
        <Region region="next-waitlist">
          <div className="link-page__next">
            <h2 className="link-page__next-title">{copy.nextHeading}</h2>
            <p>{copy.waitlistEmails}</p>
            {appStoreButton || googlePlayButton ? (
              <>
                <p>{copy.appLine}</p>
                <StoreButtons
                  appStoreButton={appStoreButton}
                  googlePlayButton={googlePlayButton}
                  className="link-page__stores"
                />
              </>
            ) : null}
            <p>{copy.waitlistChange}</p>
          </div>
        </Region>
        <Region region="next-quote">
          <div className="link-page__next">
            <h2 className="link-page__next-title">{copy.nextHeading}</h2>
            <p>{copy.quoteReply}</p>
            <p>{copy.quoteBooking}</p>
            <p>
              <a className="button button--primary" href={CALENDAR.bookingUrl} {...EXTERNAL_LINK_PROPS}>
                {copy.quoteBookingLink}
                <span className="visually-hidden"> {copy.newTab}</span>
              </a>
            </p>
          </div>
        </Region>
        <Region region="rejoin">
          <div className="link-page__next">
            <p>{copy.rejoin}</p>
            <p>{WAITLIST_CONSENT_STATEMENT}</p>
            <form method="post" action={linkPageSlot('action')} className="link-page__form">
              <input type="hidden" name="token" value={linkPageSlot('token')} />
              <input type="hidden" name="rejoin" value="1" />
              <button type="submit" className="button button--secondary">
                {copy.rejoinAction}
              </button>
            </form>
          </div>
        </Region>
        <Region region="sign-up">
          <p>
            <a className="button button--primary" href={SIGN_UP_HREF}>
              {copy.expiredAction}
            </a>
          </p>
        </Region>
        <p className="link-page__home">
          <a href={ROUTE_PATHS.home}>{copy.homeLink}</a>
        </p>
      </div>
    </section>
  );
}
