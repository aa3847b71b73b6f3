import { useEffect, useRef } from 'react';
import { MESSAGES } from '#src/config/messages.ts';
import { EXTERNAL_LINK_PROPS, LINKS } from '#src/config/site.ts';
import { trackStoreClick } from '#src/lib/analytics.ts';
import '#src/styles/ios-popup.css';

export const IOS_POPUP_TEXT = {
  title: 'Sign-up issue on iOS',
  close: 'Close',
  newTab: '(opens in a new tab)',
} as const;

export type IosIssuePopupProps = {
  onClose: () => void;
  /** Where 'Download the app' continues to; the App Store (UK listing) by default. */
  appStoreUrl?: string;
};

/**
 * The temporary notice about the iOS sign-up issue: a native modal <dialog>, so the browser moves
 * focus in, keeps Tab inside, makes the page inert, closes it on Escape and gives focus back to its
 * opener. Its form's buttons, 'Download the app' and the backdrop close it. Rendered only while open.
 */
export function IosIssuePopup({ onClose, appStoreUrl = LINKS.appStore }: IosIssuePopupProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  const close = () => dialog.current?.close();

  return (
    // A click beside the box (on the dialog, which spans the viewport) closes it; Escape is the
    // keyboard's way.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      className="ios-popup"
      aria-modal="true"
      aria-labelledby="ios-popup-title"
      aria-describedby="ios-popup-text"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <form method="dialog" className="ios-popup__dialog">
        <button type="submit" className="ios-popup__close" aria-label={IOS_POPUP_TEXT.close}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
        </button>
        <h2 id="ios-popup-title" className="ios-popup__title">
          {IOS_POPUP_TEXT.title}
        </h2>
        <p id="ios-popup-text" className="ios-popup__text">
          {MESSAGES.iosPopupText}
        </p>
        <div className="ios-popup__actions">
          <button type="submit" className="button button--secondary">
            {MESSAGES.iosPopupDismiss}
          </button>
          <a
            className="button button--primary"
            href={appStoreUrl}
            {...EXTERNAL_LINK_PROPS}
            onClick={() => {
              void trackStoreClick('iOS', 'popup');
              close();
            }}
          >
            {MESSAGES.iosPopupDownload}
            <span className="visually-hidden"> {IOS_POPUP_TEXT.newTab}</span>
          </a>
        </div>
      </form>
    </dialog>
  );
}
