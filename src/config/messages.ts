/** User-visible messages from the spec (sections 4 and 8), quoted exactly. */
import { PRODUCT_NAME, CONTACT_EMAIL, SCHEDULING_CALL_MINUTES, TAGLINE } from './constants.ts';

export const MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  genericFailureToast: 'Something went wrong. Please try again.',
  quoteSuccessToast:
    "Thank you for your interest! We'll be in touch soon with a tailored quote for your school.",
  quoteThankYouTitle: 'Thank You!',
  quoteThankYouBody: "We've received your request and will be in touch shortly.",
  waitlistJoined: `Thanks for your interest in ${PRODUCT_NAME}!`,
  notFoundTitle: 'This page is on mute...',
  notFoundButton: 'Back to Home',
  iosPopupText:
    "Dear visitor, We're currently experiencing a technical issue affecting sign-up on our iOS app...",
  iosPopupDismiss: 'Dismiss',
  iosPopupDownload: 'Download the app',
} as const;

/** Storage-layer errors (spec section 8); {provider} is Airtable. */
export const STORAGE_ERRORS = {
  invalidEmailFormat: 'Invalid email format',
  invalidApiKey: 'Invalid API key. Please check your Airtable configuration.',
  notAuthorized: 'Not authorized to access this Airtable base. Please check permissions.',
  quoteFailed: 'Failed to submit quote request. Please try again later.',
  waitlistFailed: 'Failed to add to waitlist. Please try again later.',
} as const;

/** What the waitlist sends and how often at most: the consent statement's promise, repeated after confirming. */
const WAITLIST_EMAILS = 'news about the app and its launch, at most twice a month';

/**
 * What the waitlist's visitor agrees to, shown by its button and stored word for word in the record's
 * `Consent Text`. Change it here only; records keep the words each visitor saw.
 */
export const WAITLIST_CONSENT_STATEMENT = `By joining, you (a parent, carer, teacher or investor, aged 18 or over) agree that ${PRODUCT_NAME} may email you ${WAITLIST_EMAILS}. We first send one email to confirm it is you. Every email has a link to stop, and you can withdraw at any time.`;

/** The words of every email the site sends, and of the pages its links open. */
export const EMAIL_COPY = {
  senderName: PRODUCT_NAME,
  tagline: TAGLINE,
  /** Under an email's button: its address, for a mail client that shows no button. */
  fallbackLink: 'If the button does not work, copy this address into your browser:',
  signOff: `The ${PRODUCT_NAME} team`,
  footer: `You get this email because this address was entered on the ${PRODUCT_NAME} website. Questions: ${CONTACT_EMAIL}.`,
  unsubscribeLine: 'Stop all emails from us:',
  confirm: {
    subject: `Confirm your place on the ${PRODUCT_NAME} waitlist`,
    intro: `Someone (we hope you) asked to join the ${PRODUCT_NAME} waitlist with this address.`,
    action: 'Confirm my place',
    ignore:
      'If it was not you, ignore this email: without your confirmation we will not write again, and the address is deleted within 30 days.',
  },
  change: {
    subject: `Confirm the change to your ${PRODUCT_NAME} details`,
    intro: `Someone (we hope you) sent new details for this address on the ${PRODUCT_NAME} website. Nothing has changed yet.`,
    action: 'Review and confirm the change',
    ignore: 'If it was not you, ignore this email and nothing changes.',
  },
  /** The confirmation a withdrawn address gets when its owner asks to join again. */
  rejoin: {
    subject: `Confirm you want to rejoin the ${PRODUCT_NAME} waitlist`,
    intro: `Someone (we hope you) asked to join the ${PRODUCT_NAME} waitlist again with this address. It stays unsubscribed until you confirm.`,
    action: 'Confirm my place',
    ignore: 'If it was not you, ignore this email: nothing changes and we will not write again.',
  },
  quoteAcknowledgement: {
    subject: `We have your quote request – ${PRODUCT_NAME} for schools`,
    intro: `Thank you for asking about ${PRODUCT_NAME} for your school. Our schools team will reply within two working days.`,
    action: 'If you would rather talk it through, book a call',
    ignore:
      'If you did not ask for a quote, ignore this email; reply to it if you want us to delete the request.',
  },
  /** The schools team's notices, by what happened to the request. */
  schoolsTeam: {
    new: {
      subject: (school: string) => `New quote request: ${school}`,
      intro: 'A school asked for a quote on the website. Reply to this email to answer the contact.',
    },
    held: {
      subject: (school: string) => `Another quote request for a contact on record (not confirmed): ${school}`,
      intro:
        'Someone sent a quote request with a contact address we already have. The stored request is unchanged: we emailed the contact to confirm these details. Reply to this email to answer the contact.',
    },
    'confirmed-change': {
      subject: (school: string) => `Updated quote request (confirmed by the contact): ${school}`,
      intro: 'The contact confirmed these details by email; the request is back to New.',
    },
    /** The hour's digest: the notices held back past the hourly ceiling (src/server/mail/team-inbox.ts). */
    digest: {
      subject: (count: number) => `Quote requests held back in the last hour: ${count}`,
      intro: (perHour: number) =>
        `More than ${perHour} quote requests came in within an hour, so the website held back its emails about these. Each one is stored in the base as usual. Write to a contact to answer them.`,
      kinds: {
        new: 'new request',
        held: 'another request for a contact on record (not confirmed)',
        'confirmed-change': 'updated request (confirmed by the contact)',
      },
      more: (count: number) => `${count} more held back (too many for one email); the base has them all.`,
    },
  },
  linkPages: {
    confirmTitle: 'Confirm your place on the waitlist',
    confirmBody: 'Press the button to confirm that you want our emails at this address.',
    confirmButton: 'Confirm my place',
    confirmedTitle: 'You are on the waitlist',
    confirmedBody: 'Thank you. Your place is confirmed.',
    alreadyConfirmedTitle: 'Your place was already confirmed',
    alreadyConfirmedBody: 'You pressed this button before, so nothing has changed: you are on the waitlist.',
    changeTitle: 'Confirm the change to your details',
    changeBody: 'Press the button to apply these details to the record for this address:',
    changeButton: 'Apply the change',
    changedTitle: 'Your details are updated',
    changedBody: 'Thank you. We have applied the change.',
    alreadyChangedTitle: 'These details are already applied',
    alreadyChangedBody: 'You pressed this button before, so nothing has changed.',
    unsubscribeTitle: 'Stop emails from us',
    unsubscribeBody:
      'Press the button and we will not email this address again. We keep the address only to make sure of that.',
    unsubscribeButton: 'Stop emails',
    unsubscribedTitle: 'You will not hear from us again',
    unsubscribedBody:
      'This address is withdrawn from every list of ours: nothing more will be sent to it. We keep the address only to make sure of that.',
    alreadyUnsubscribedTitle: 'This address was already unsubscribed',
    alreadyUnsubscribedBody: 'You pressed this button before. Nothing more will be sent to this address.',
    rejoinSentTitle: 'Check your inbox',
    rejoinSentBody:
      'We have emailed this address a link to confirm that you want to join the waitlist again. Nothing changes until you press its button: until then the address stays unsubscribed. The link works for 7 days.',
    rejoinLimitedTitle: 'We could not send another email yet',
    rejoinLimitedBody:
      'We send an address at most one email every 10 minutes and 3 a day, and this one has had its share, so nothing was sent and nothing has changed: the address stays unsubscribed. Please try again later.',
    rejoinedTitle: 'You are back on the waitlist',
    rejoinedBody: `Thank you. We will email you ${WAITLIST_EMAILS}. Every email has a link to stop.`,
    expiredTitle: 'This link has expired',
    expiredBody:
      'Links in our emails work for 7 days. Nothing has changed. You can sign up again and we will send a new link.',
    expiredAction: 'Sign up again',
    supersededTitle: 'This link was replaced by a newer change',
    supersededBody:
      'Your details were changed after we sent this email, so this older link no longer applies and nothing has changed. If the details are not right, send the form again and we will email you a new link.',
    invalidTitle: 'This link does not work',
    invalidBody:
      'The link is incomplete or was changed after we sent it, so nothing has changed. Copy the whole link from the email, or sign up again.',
    unavailableTitle: 'We could not do that just now',
    unavailableBody: `Nothing has changed. Please try again in a few minutes, or write to ${CONTACT_EMAIL}.`,
    homeLink: 'Back to the home page',
    /** After confirming (or changing) a waitlist place: what comes, how often, and the app. */
    nextHeading: 'What happens next',
    waitlistEmails: `We will email you ${WAITLIST_EMAILS}. Every email has a link to stop.`,
    waitlistChange:
      'To change your interests, fill in the waitlist form again with this address: we will email you to confirm the change.',
    appLine: `${PRODUCT_NAME} is available now. Your child can start recording today:`,
    /** After a quote change: when the team replies, and the booking calendar. */
    quoteReply: 'Our schools team will reply within two working days.',
    quoteBooking: 'If you would rather talk it through, book a call:',
    quoteBookingLink: `Book a ${SCHEDULING_CALL_MINUTES}-minute call`,
    newTab: '(opens in a new tab)',
    /**
     * After unsubscribing: how to come back. Nothing typed on the site makes us email a withdrawn
     * address: only this button sends it a confirmation, and only pressing that brings it back.
     */
    rejoin:
      'Changed your mind? Join the waitlist again from here: we will email this address a link to confirm, and nothing changes until you press it. You agree to this:',
    rejoinAction: 'Join the waitlist again',
  },
} as const;
