/**
 * What a form contract is: forms.ts declares everything about each form once, and everything else reads it:
 * the form's markup (post names, labels, options), the server's door (its path, the page it belongs to, the
 * honeypot), the one parser and the one cell builder (submission.ts, shared by the server and direct mode),
 * the base's schema (table, Airtable field names, types, bounds, select choices: src/lib/airtable/schema.ts,
 * which the setup and check commands and the emulator read) and the tests.
 *
 * A field says where its value comes from (`source`):
 * - 'posted': the form posts it under `post`, labelled `label`; `required` ones may never be blank;
 * - 'fixed': the server writes `value` on every write (a quote's Status, the sign-up's Page Source);
 * - 'created' / 'updated': the server's clock, on creation only / on every write;
 * - 'stored': a column the forms' cells never write (one the owner keeps, or the consent fields,
 *   which only the server's consent rules write: src/server/desk/submission-upsert.ts).
 */
import { EMAIL_MAX_LENGTH } from '#src/config/constants.ts';
import type { EMAIL_COPY } from '#src/config/messages.ts';
import type { LinkPageRegion } from '#src/lib/page-templates.ts';

export interface PostedSource {
  readonly source: 'posted';
  /** The name the form posts the field under (`name` of its input). */
  readonly post: string;
  readonly label: string;
  /** Never blank: required on a create, never emptied on an update. */
  readonly required: boolean;
}
export type FixedSource = { readonly source: 'fixed'; readonly value: string };
type StampSource = { readonly source: 'created' } | { readonly source: 'updated' };
type Stored = { readonly source: 'stored' };

export type TextField = {
  readonly airtable: string;
  readonly type: 'email' | 'singleLineText' | 'multilineText';
  /** Longest value accepted (characters). */
  readonly maxLength: number;
} & (PostedSource | FixedSource | Stored);

export type MultiSelectField = {
  readonly airtable: string;
  readonly type: 'multipleSelects';
  /** Longest item. */
  readonly maxLength: number;
  /** Most items one cell holds. */
  readonly maxItems: number;
  /** What the form offers, in order: the stable id it posts, the label shown, the value stored. */
  readonly options: readonly { readonly id: string; readonly label: string; readonly stored: string }[];
  /** Further options of the base field that the form does not offer (a default, say). */
  readonly moreChoices?: readonly string[];
} & PostedSource;

export type SingleSelectField = {
  readonly airtable: string;
  readonly type: 'singleSelect';
  readonly maxLength: number;
  /** The base field's options; a form writes only `value` (a 'stored' one: none, see submission.ts). */
  readonly choices: readonly string[];
} & (FixedSource | Stored);

export type DateTimeField = { readonly airtable: string; readonly type: 'dateTime' } & (StampSource | Stored);

export type ContractField = TextField | MultiSelectField | SingleSelectField | DateTimeField;

/**
 * The 'Other' rule of a multiple select: ticking the option `optionId` with text in the posted
 * field `textField` adds one item `${prefix} ${text}` to the select and stores the text, trimmed,
 * in `textField`'s column; ticked without text it adds nothing. An item is an 'Other' item when it
 * starts with `${prefix} ` (isOtherItem in submission.ts, the one test of it).
 */
export interface OtherRule<K extends string = string> {
  readonly field: K;
  readonly optionId: string;
  readonly textField: K;
  readonly prefix: string;
}

export interface FormContract {
  /** Which form: names the door, the answer template and the route's form. */
  readonly name: string;
  readonly table: string;
  /** Where the form posts, on the site's own origin (relay and queued modes). */
  readonly path: string;
  /** The page the form is on (a GET of the door, and an answer's link back, lead there). */
  readonly page: string;
  /** The bot trap's post name: filled, the submission is answered like a success, nothing stored. */
  readonly honeypot: string;
  /** Its words outside its own markup, which every form must have. */
  readonly words: {
    /** The answer page's document title, before ' | ' and the product's name. */
    readonly answerTitle: string;
    /** What the browser's console calls it when a send fails (`Quote request failed:`). */
    readonly logName: string;
    /** Direct mode's words for a failed write that neither the key, the base nor the address explains. */
    readonly failed: string;
    /** The thanks on the server's plain answer page (a host without the build's templates): its title, then lines. */
    readonly thanks: readonly [string, ...string[]];
    /** The link pages' next step after a press (their template's region), or none. */
    readonly nextStep: Extract<LinkPageRegion, `next-${string}`> | null;
  };
  /** The table's fields keyed by the site's own names, in the order the setup command creates them. */
  readonly fields: Readonly<Record<string, ContractField>>;
  /** Written on a new record only, for a selection left empty (never over a stored one). */
  readonly defaultOnCreate?: { readonly field: string; readonly value: readonly string[] };
  readonly other?: OtherRule;
  /** What the server does with what it stores (server mode). */
  readonly conduct: FormConduct;
}

/**
 * What the server does with a form's stored submissions (server mode; docs/consent.md): the one
 * place two forms differ in behaviour. The server reads it and never branches on a form's name.
 */
export interface FormConduct {
  /**
   * Its addresses are proved before anything else is sent to them: a new record is Pending with
   * `statement` (the words its visitor saw), its visitor gets the confirmation email, and its table
   * is the suppression list every email to a visitor checks. At most one form says so; its fields
   * include `consent`, `consentText` and `confirmedAt`.
   */
  readonly confirms?: { readonly statement: string };
  /**
   * A team hears of each new request, one held for an address on record, and a confirmed change,
   * with an hourly ceiling and digest of its own (src/server/mail/team-inbox.ts). A team is the
   * Worker setting holding its address: forms naming the same setting share one inbox.
   */
  readonly tellsTeam?: {
    /** The posted field whose value the team's subject line names (the school). */
    readonly subjectField: string;
    /** The Worker setting with the team's address (wrangler.jsonc `vars`; launch-check asks for it). */
    readonly addressSetting: `${string}_EMAIL`;
    /** The address while the setting is unset (local runs and tests only). */
    readonly defaultAddress: string;
    /** Its words: a key of EMAIL_COPY shaped as a team's (its notices and its digest). */
    readonly copy: TeamCopy;
  };
  /**
   * The email a new record's visitor gets, for a form that does not confirm: its words (a key of
   * EMAIL_COPY, so the page's bundle carries no email copy) and where its one button leads.
   */
  readonly acknowledgement?: { readonly copy: AcknowledgementCopy; readonly url: string };
}

type EmailCopy = typeof EMAIL_COPY;
/** The keys of EMAIL_COPY whose words have `Shape` (tsc names a key whose words lack a part). */
type CopyKey<Shape> = { [K in keyof EmailCopy]: EmailCopy[K] extends Shape ? K : never }[keyof EmailCopy];
/** The keys of EMAIL_COPY that are an email with one button. */
export type AcknowledgementCopy = CopyKey<Record<'subject' | 'intro' | 'ignore' | 'action', string>>;
type TeamKinds<T> = Record<'new' | 'held' | 'confirmed-change', T>;
type Counted = (count: number) => string;
type Digest = { subject: Counted; intro: Counted; kinds: TeamKinds<string>; more: Counted };
type Notice = { subject: (named: string) => string; intro: string };
/** The keys of EMAIL_COPY that are a team's words: each notice's subject and intro, and the digest's. */
export type TeamCopy = CopyKey<TeamKinds<Notice> & { digest: Digest }>;

/** Checks a contract's own consistency at the type level and keeps its literal types. */
export function defineForm<const C extends FormContract>(contract: C & ContractChecks<C>): C {
  return contract;
}

type FieldKey<C extends FormContract> = keyof C['fields'] & string;
type ContractChecks<C extends FormContract> = {
  readonly defaultOnCreate?: { readonly field: FieldKey<C> };
  readonly other?: OtherRule<FieldKey<C>>;
  readonly conduct: { readonly tellsTeam?: { readonly subjectField: PostedKey<C> } };
};

/** The keys of a contract's posted fields. */
export type PostedKey<C extends FormContract> = {
  [K in FieldKey<C>]: C['fields'][K] extends { source: 'posted' } ? K : never;
}[FieldKey<C>];

type PostName<C extends FormContract, K extends PostedKey<C>> = C['fields'][K] extends { post: infer P }
  ? P & string
  : never;

type CellOf<F> = F extends { type: 'multipleSelects' } ? string[] : string;

/**
 * What a form posts, by post name: a multiple select as the ids of its ticked options, every
 * other field as text. The form builds it from its state (tsc names a field the form misses), the
 * enhanced form posts it urlencoded like the native form, and direct mode parses it as the server does.
 */
export type PostedValues<C extends FormContract> = {
  [K in PostedKey<C> as PostName<C, K>]: CellOf<C['fields'][K]>;
};

/** The posted fields of a contract with their keys, in the contract's order. */
export function postedFields(contract: FormContract): [string, ContractField & PostedSource][] {
  return Object.entries(contract.fields).filter(
    (entry): entry is [string, ContractField & PostedSource] => entry[1].source === 'posted',
  );
}

/** What both forms share. */

/**
 * The forms' bot trap: a field people never see, named so bots fill it and browsers do not
 * autofill it. Filled, the page sends nothing and the server answers like a success, storing nothing.
 */
export const FORM_HONEYPOT = 'company_website';

/**
 * Both tables' normalised email (`normaliseEmail`), which the server writes on every write and
 * merges on (Airtable's performUpsert takes text fields, not the email type): a write Airtable
 * applies after the writer gave up on it, then tried again, makes one record, not two.
 */
export const EMAIL_KEY_FIELD = {
  airtable: 'Email Key',
  type: 'singleLineText',
  maxLength: EMAIL_MAX_LENGTH,
  source: 'stored',
} as const;

/**
 * The bidirectional controls (embeddings, overrides, isolates, the marks): typed into a name, they
 * make it read differently from what it is (U+202E turns the rest of a line around). The one set
 * of them: the forms' parser removes them from every text field before anything is stored or
 * emailed (submission.ts), and mailer.ts from every header value.
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export const withoutBidiControls = (text: string) => text.replace(BIDI_CONTROLS, '');

/** Line breaks (CRLF as one) and the other control characters: C0, DEL, C1, U+2028, U+2029. */
const CONTROLS = /\r\n|[\p{Cc}\u2028\u2029]/gu;
const LINE_BREAK = /^(?:\r\n|[\n\r\u2028\u2029])$/;

/**
 * What a text field of `type` stores of what was typed, trimmed: the forms' parser's one rule
 * (submission.ts). No bidirectional controls; every other control character a space, so a
 * single-line value is one line wherever it goes (a header, a row of the team's email); a
 * multi-line field keeps its line breaks, as `\n`. Text copied into a single-line place takes the
 * default.
 */
export function storedText(text: string, type: ContractField['type'] = 'singleLineText'): string {
  const fold = (control: string) => (type === 'multilineText' && LINE_BREAK.test(control) ? '\n' : ' ');
  return withoutBidiControls(text).replace(CONTROLS, fold).trim();
}

/** Long enough for any real name or school, short enough that a 1 MB paste is refused early. */
export const NAME_MAX_LENGTH = 200;

/** A waitlist record's consent, in the order it moves (the base field's options). */
export const CONSENT_STATES = ['Pending', 'Confirmed', 'Withdrawn'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];
