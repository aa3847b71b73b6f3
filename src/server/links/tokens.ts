/**
 * Signed links: what a link may do, for which address, until when, with which values (a held change),
 * sealed with an HMAC of `LINK_SECRET`, no database (Web Crypto: workerd and Node). A token is
 * `<payload>.<signature>`, base64url: JSON, and HMAC-SHA-256 over a fixed label and the payload (so it
 * cannot be replayed as another kind of signed value).
 */
import { type FormContract } from '#src/lib/forms/contract.ts';
import { formNamed } from '#src/lib/forms/forms.ts';
import { linkSecretProblem } from '#src/server/settings.ts';

/** Where each kind of signed link lands (the Worker runs first for /api/*). */
export const EMAIL_LINK_PATHS = {
  confirm: '/api/email/confirm',
  change: '/api/email/change',
  unsubscribe: '/api/email/unsubscribe',
} as const;

/** What a link does once its button is pressed. */
export type LinkPurpose = keyof typeof EMAIL_LINK_PATHS;

export const linkPurposeAt = (pathname: string) =>
  (Object.keys(EMAIL_LINK_PATHS) as LinkPurpose[]).find((purpose) => EMAIL_LINK_PATHS[purpose] === pathname);

/** Which form's record a link acts on: a contract's name (any form in FORM_LIST). */
export type LinkForm = FormContract['name'];

/** Values a held change carries: the submission's fields by post name. */
export type LinkValues = Readonly<Record<string, string | readonly string[]>>;

export interface LinkClaims {
  readonly purpose: LinkPurpose;
  readonly form: LinkForm;
  /** The address the link was sent to (the record's email). */
  readonly email: string;
  /** Seconds since the epoch after which the link no longer works. */
  readonly expiresAt: number;
  /** A held change's values; absent for confirmations of a sign-up as stored and for unsubscribing. */
  readonly values?: LinkValues;
  /** A rejoin confirmation's: the withdrawal's Last Updated; it confirms only that one (a plain one, never). */
  readonly withdrawnAt?: string;
}

/** How long a confirmation or change link works (the issue: 7 days). */
export const LINK_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** Years, not days: withdrawal must work from an old email (a provider may replay List-Unsubscribe long after). */
const UNSUBSCRIBE_LINK_LIFETIME_SECONDS = 5 * 365 * 24 * 60 * 60;

/** Why a token was refused; every case changes nothing. */
export type LinkRefusal = 'malformed' | 'tampered' | 'expired' | 'wrong-purpose';

export type LinkCheck =
  | { readonly ok: true; readonly claims: LinkClaims }
  | { readonly ok: false; readonly reason: LinkRefusal; readonly claims?: LinkClaims };

const SIGNATURE_LABEL = 'podling-link-v1.';
const encoder = new TextEncoder();
const HMAC = { name: 'HMAC', hash: 'SHA-256' };
/** The bytes a token's signature covers: the label, then its payload. */
const signed = (payload: string) => encoder.encode(SIGNATURE_LABEL + payload);

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  const key =
    keys.get(secret) ??
    crypto.subtle.importKey('raw', encoder.encode(secret), HMAC, false, ['sign', 'verify']);
  keys.set(secret, key);
  return key;
}

/** The signed token for `claims`, under the current secret. */
export async function signLink(claims: LinkClaims, secret: string): Promise<string> {
  const problem = linkSecretProblem(secret);
  if (problem) throw new Error(problem);
  // Short keys in this order; JSON leaves out an absent `v` or `w`.
  const { purpose: p, form: f, email: e, expiresAt: x, values: v, withdrawnAt: w } = claims;
  const payload = toBase64Url(encoder.encode(JSON.stringify({ p, f, e, x, v, w })));
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), signed(payload));
  return `${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

function isValues(value: unknown): value is LinkValues {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((entry) => [entry].flat().every((item) => typeof item === 'string'));
}

function claimsOf(json: unknown): LinkClaims | null {
  if (typeof json !== 'object' || json === null) return null;
  const { p, f, e, x, v, w } = json as Record<string, unknown>;
  if (typeof p !== 'string' || !Object.hasOwn(EMAIL_LINK_PATHS, p) || typeof f !== 'string' || !formNamed(f))
    return null;
  if (typeof e !== 'string' || e.length === 0 || typeof x !== 'number' || !Number.isFinite(x)) return null;
  if ((v !== undefined && !isValues(v)) || (w !== undefined && typeof w !== 'string')) return null;
  return { purpose: p as LinkPurpose, form: f, email: e, expiresAt: x, values: v, withdrawnAt: w };
}

/**
 * Signed by one of `secrets` (the current first, then any honoured after a rotation), for `purpose`, unexpired
 * at `now`. The signature is checked before the payload is trusted; an expired link still names its claims
 * (its page offers to sign up again).
 */
export async function checkLink(
  token: string,
  purpose: LinkPurpose,
  secrets: readonly string[],
  now: Date,
): Promise<LinkCheck> {
  const [payload = '', signatureText = '', ...more] = token.split('.');
  const signature = fromBase64Url(signatureText);
  const payloadBytes = fromBase64Url(payload);
  if (more.length > 0 || !payloadBytes || signature?.length !== 32) return { ok: false, reason: 'malformed' };
  let genuine = false;
  for (const secret of secrets)
    genuine ||=
      !linkSecretProblem(secret) &&
      (await crypto.subtle.verify('HMAC', await hmacKey(secret), signature, signed(payload)));
  if (!genuine) return { ok: false, reason: 'tampered' };
  let claims: LinkClaims | null;
  try {
    claims = claimsOf(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes)));
  } catch {
    claims = null;
  }
  if (!claims) return { ok: false, reason: 'malformed' };
  if (claims.purpose !== purpose) return { ok: false, reason: 'wrong-purpose' };
  if (now.getTime() / 1000 > claims.expiresAt) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}

const lifetimeOf = (purpose: LinkPurpose) =>
  purpose === 'unsubscribe' ? UNSUBSCRIBE_LINK_LIFETIME_SECONDS : LINK_LIFETIME_SECONDS;

/** When a link made at `now` for `purpose` stops working, in seconds since the epoch. */
export const linkExpiry = (purpose: LinkPurpose, now: Date): number =>
  Math.floor(now.getTime() / 1000) + lifetimeOf(purpose);

/** When a link was made (to the second): its expiry less its purpose's lifetime. */
export const linkSentAt = (claims: LinkClaims): Date =>
  new Date((claims.expiresAt - lifetimeOf(claims.purpose)) * 1000);
