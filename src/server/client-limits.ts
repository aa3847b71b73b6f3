/**
 * How much one client, and one email address, may write. A launch rush is many people, each
 * sending once or twice; a flood is one address sending as fast as it can. The limits below let
 * every person of a rush through and hold each flooding address to a trickle, before its requests
 * reach the pacer that every visitor shares.
 *
 * The Worker counts with Cloudflare's Rate Limiting binding (wrangler.jsonc `ratelimits`, the Vite
 * plugin's local stand-in in `vite` and `vite preview`), keyed on the connecting address
 * (CF-Connecting-IP: Cloudflare's, or in local runs the socket's, where a forwarded-for header
 * counts only from a proxy named in TRUSTED_PROXIES). Without a binding (unit tests): an
 * in-memory sliding window. An IPv6 client counts per /64 (clientLimitKey), the block one
 * subscriber is given.
 */
import ipaddr from 'ipaddr.js';

/**
 * Submissions one client address may make per minute. A school office or a family behind one
 * address sends a handful (a quote, a sign-up or two, a corrected typo); ten leaves room for a
 * staff room of colleagues while one flooding address gets at most 10 of Airtable's 300 writes a
 * minute, and a rush from many addresses is never touched.
 */
export const SUBMISSIONS_PER_CLIENT_PER_MINUTE = 10;
/** Writes of one email address per minute: a corrected choice or two, not a rewrite loop. */
export const SUBMISSIONS_PER_EMAIL_PER_MINUTE = 3;
/**
 * Dead-letter admin requests one address may make per minute: the owner makes one or two, a
 * guesser of a 32-character random token gets nowhere at 30 (each wrong one also waits a second).
 */
export const ADMIN_ATTEMPTS_PER_MINUTE = 30;
export const LIMIT_WINDOW_MS = 60_000;
/** Keys an in-memory limiter remembers at most: a botnet cannot grow it without bound. */
const MAX_TRACKED_KEYS = 50_000;

export type LimitAnswer = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface Limiter {
  /** Counts one attempt for `key`; says whether it is within the limit. */
  take(key: string): Promise<LimitAnswer>;
}

/** Cloudflare's Rate Limiting binding, as the Worker sees it. */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

export interface WindowLimiterOptions {
  limit: number;
  windowMs?: number;
  now?: () => number;
  maxKeys?: number;
}

/** A sliding window in memory: at most `limit` attempts per key in any `windowMs`. */
export function createWindowLimiter({
  limit,
  windowMs = LIMIT_WINDOW_MS,
  now = Date.now,
  maxKeys = MAX_TRACKED_KEYS,
}: WindowLimiterOptions): Limiter {
  const attempts = new Map<string, number[]>();
  const prune = (at: number) => {
    for (const [key, times] of attempts) {
      if ((times.at(-1) ?? 0) <= at - windowMs) attempts.delete(key);
    }
    // Still full: forget the keys seen longest ago (Map keeps insertion order).
    for (const key of attempts.keys()) {
      if (attempts.size < maxKeys) break;
      attempts.delete(key);
    }
  };
  return {
    async take(key) {
      const at = now();
      const recent = (attempts.get(key) ?? []).filter((time) => time > at - windowMs);
      if (recent.length >= limit) {
        attempts.set(key, recent);
        const oldest = recent[0] ?? at;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)) };
      }
      recent.push(at);
      attempts.delete(key);
      if (attempts.size >= maxKeys) prune(at);
      attempts.set(key, recent);
      return { ok: true };
    },
  };
}

/** The Worker's binding as a Limiter; its period is the binding's (60 s in wrangler.jsonc). */
export function bindingLimiter(binding: RateLimitBinding, periodSeconds = LIMIT_WINDOW_MS / 1000): Limiter {
  return {
    async take(key) {
      const { success } = await binding.limit({ key });
      return success ? { ok: true } : { ok: false, retryAfterSeconds: periodSeconds };
    },
  };
}

/**
 * The key a per-client limit counts under: an IPv4 address as it is; an IPv6 address reduced to
 * its /64, since one subscriber, phone or server is routed a whole /64 and can take any address
 * in it ('2001:DB8:0:1::5' and '2001:db8:0:1:abcd::9' count as one client, '2001:db8:0:1::/64').
 * An IPv4-mapped IPv6 address ('::ffff:192.0.2.1') is its IPv4 address; brackets and a zone id
 * ('fe80::1%eth0') are dropped. Anything else ('unknown') is its own key, lower-cased.
 */
export function clientLimitKey(address: string): string {
  const bare = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (!bare.includes(':') || !ipaddr.IPv6.isValid(bare)) return bare;
  const ip = ipaddr.IPv6.parse(bare);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address().toString();
  return `${ip.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/**
 * Mail providers that deliver many spellings to one inbox: each provider's domains as one, and
 * the characters its user names ignore. Gmail ignores dots (and googlemail.com is gmail.com);
 * Proton ignores dots, hyphens and underscores on all its domains; iCloud's three domains are
 * one account. Fastmail's subdomain addressing ('anything@ana.fastmail.com') is read below.
 */
const ONE_INBOX: readonly { domains: readonly string[]; ignored: RegExp }[] = [
  { domains: ['gmail.com', 'googlemail.com'], ignored: /\./g },
  { domains: ['proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me'], ignored: /[._-]/g },
  { domains: ['icloud.com', 'me.com', 'mac.com'], ignored: /(?!)/g },
];
const FASTMAIL_SUBDOMAIN = /^([^.]+)\.(fastmail\.(?:com|fm))$/;

/**
 * The inbox a stored address (canonicalEmail's form) delivers to, for the per-email limits only:
 * a '+tag' is dropped (Gmail, Outlook, iCloud, Fastmail, Proton and most others deliver 'ana+x@'
 * to 'ana@'), and each provider of ONE_INBOX is one domain with its ignored characters gone. So
 * 'A.na+1@googlemail.com' counts as 'ana@gmail.com', 'a_n-a@pm.me' as 'ana@proton.me',
 * 'ana@me.com' as 'ana@icloud.com' and 'x@ana.fastmail.com' as 'ana@fastmail.com'. What is
 * stored stays what was typed.
 */
export function inboxKey(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  const fastmail = FASTMAIL_SUBDOMAIN.exec(domain);
  if (fastmail) [, local = local, domain = domain] = fastmail;
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const provider = ONE_INBOX.find((candidate) => candidate.domains.includes(domain));
  if (provider) {
    domain = provider.domains[0] ?? domain;
    local = local.replace(provider.ignored, '') || local;
  }
  return `${local}@${domain}`;
}

/** Parses TRUSTED_PROXIES: addresses, separated by commas or spaces. */
export function trustedProxies(value: string | undefined): ReadonlySet<string> {
  return new Set(
    (value ?? '')
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(plainAddress),
  );
}

/**
 * An address in one spelling, so a proxy matches however it is written: '::ffff:127.0.0.1' (an
 * IPv4 client of a dual-stack socket) → '127.0.0.1', '2001:DB8:0::1' → '2001:db8::1'; anything
 * that is not an address ('unknown') as it is.
 */
function plainAddress(address: string): string {
  return ipaddr.IPv6.isValid(address) ? ipaddr.process(address).toString() : address;
}

/**
 * The address a request comes from: the socket's, unless the socket is a trusted proxy, in which
 * case the nearest forwarded-for entry that is not itself a trusted proxy. A client cannot choose
 * its key by sending a header: without a named proxy, forwarded-for headers are ignored.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | null,
  proxies: ReadonlySet<string>,
): string {
  let address = plainAddress(socketAddress ?? '') || 'unknown';
  if (!proxies.has(address) || !forwardedFor) return address;
  const hops = forwardedFor
    .split(',')
    .map((hop) => plainAddress(hop.trim()))
    .filter(Boolean);
  while (proxies.has(address) && hops.length > 0) address = hops.pop() ?? address;
  return address;
}
