/**
 * How much one client, and one email address, may write (the request check's limits, and the
 * dead-letter admin's). A launch rush is many people, each sending once or twice; a flood is one
 * address sending as fast as it can. The limits below let every person of a rush through and hold
 * each flooding address to a trickle, before its requests reach the pacer every visitor shares.
 *
 * The Worker counts with Cloudflare's Rate Limiting binding (wrangler.jsonc `ratelimits`, the Vite
 * plugin's local stand-in in `vite` and `vite preview`), keyed on the connecting address
 * (CF-Connecting-IP; in local runs scripts/vite-plugins/connecting-address.ts sets it). Without a
 * binding (unit tests): an in-memory sliding window. An IPv6 client counts per /64.
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
const LIMIT_WINDOW_MS = 60_000;
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

/** A sliding window in memory: at most `limit` attempts per key in any LIMIT_WINDOW_MS. */
export function createWindowLimiter({
  limit,
  now = Date.now,
}: {
  limit: number;
  now?: () => number;
}): Limiter {
  const windowMs = LIMIT_WINDOW_MS;
  const attempts = new Map<string, number[]>();
  // A key is put last whenever an attempt counts (Map keeps insertion order), so the keys whose
  // last attempt is oldest come first: forget those out of the window, then, still full, the oldest.
  const prune = (at: number) => {
    for (const [key, times] of attempts) {
      if (attempts.size < MAX_TRACKED_KEYS && (times.at(-1) ?? 0) > at - windowMs) break;
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
      if (attempts.size >= MAX_TRACKED_KEYS) prune(at);
      attempts.set(key, recent);
      return { ok: true };
    },
  };
}

/** The Worker's binding as a Limiter; its period is the binding's (60 s in wrangler.jsonc). */
export function bindingLimiter(binding: RateLimitBinding): Limiter {
  return {
    async take(key) {
      const { success } = await binding.limit({ key });
      return success ? { ok: true } : { ok: false, retryAfterSeconds: LIMIT_WINDOW_MS / 1000 };
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
