import { useEffect, useEffectEvent, useRef } from 'react';
import { MESSAGES } from '#src/config/messages.ts';
import { EXTERNAL_LINK_PROPS, LINKS } from '#src/config/site.ts';
import { trackStoreClick } from '#src/lib/analytics.ts';
import '#src/styles/home.css';

export const IOS_POPUP_TEXT = {
  title: 'Sign-up issue on iOS',
  close: 'Close',
  newTab: '(opens in a new tab)',
} as const;

export type IosIssuePopupProps = {
  open: boolean;
  onClose: () => void;
  /** Where 'Download the app' continues to; the App Store (UK listing) by default. */
  appStoreUrl?: string;
};

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab cycling inside the dialog, pulling focus back if it escaped. */
function trapTab(event: KeyboardEvent, container: HTMLElement | null): void {
  if (!container) return;
  const focusable = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  const inside = active instanceof Node && container.contains(active);
  if (event.shiftKey && (!inside || active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * The temporary notice about the iOS sign-up issue: a modal dialog (role dialog, aria-modal)
 * that takes focus when it opens, keeps Tab inside, closes on Escape, the X, 'Dismiss' or
 * 'Download the app', and gives focus back to whatever opened it. Rendered only while open,
 * so the prerendered page never contains it.
 */
export function IosIssuePopup({ open, onClose, appStoreUrl = LINKS.appStore }: IosIssuePopupProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const close = useEffectEvent(() => onClose());

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
      } else if (event.key === 'Tab') {
        trapTab(event, dialog.current);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, [open]);

  if (!open) return null;

  return (
    <div className="ios-popup">
      <div className="ios-popup__backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={dialog}
        className="ios-popup__dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="ios-popup-title"
        aria-describedby="ios-popup-text"
        tabIndex={-1}
      >
        <button
          ref={closeButton}
          type="button"
          className="ios-popup__close"
          aria-label={IOS_POPUP_TEXT.close}
          onClick={onClose}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
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
          <button type="button" className="button button--secondary" onClick={onClose}>
            {MESSAGES.iosPopupDismiss}
          </button>
          <a
            className="button button--primary"
            href={appStoreUrl}
            {...EXTERNAL_LINK_PROPS}
            onClick={() => {
              void trackStoreClick('iOS', 'popup');
              onClose();
            }}
          >
            {MESSAGES.iosPopupDownload}
            <span className="visually-hidden"> {IOS_POPUP_TEXT.newTab}</span>
          </a>
        </div>
      </div>
    </div>
  );
}
