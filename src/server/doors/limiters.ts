/**
 * The limits of the request check's steps 2 and 6, of link presses and of the dead-letter admin, and
 * a client address's key: every person of a rush gets through, a flooding address a trickle. Counted by
 * Cloudflare's Rate Limiting binding (wrangler.jsonc `ratelimits`; a stand-in under `vite`) on the
 * connecting address (CF-Connecting-IP); without a binding (unit tests), by an in-memory sliding window.
 */
import ipaddr from 'ipaddr.js';

/**
 * Submissions one client address may make per minute: a school office or a family sends a handful;
 * ten leaves room for a staff room, while a flooding address gets 10 of Airtable's 300 writes a minute.
 */
export const SUBMISSIONS_PER_CLIENT_PER_MINUTE = 10;
/** Writes of one email address per minute: a corrected choice or two, not a rewrite loop. */
export const SUBMISSIONS_PER_EMAIL_PER_MINUTE = 3;
/**
 * Dead-letter admin requests per address per minute: the owner makes one or two; a guesser of a
 * 32-character random token gets nowhere at 30 (each wrong one also waits a second).
 */
export const ADMIN_ATTEMPTS_PER_MINUTE = 30;
const LIMIT_WINDOW_MS = 60_000;
/** Keys an in-memory limiter remembers at most: a botnet cannot grow it without bound. */
const MAX_TRACKED_KEYS = 50_000;

export interface Limiter {
  take(key: string): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
}

export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** A sliding window in memory: at most `limit` attempts per key in any LIMIT_WINDOW_MS. */
export function createWindowLimiter({ limit, now }: { limit: number; now?: () => number }): Limiter {
  const attempts = new Map<string, number[]>();
  // A key goes last whenever an attempt counts (Map keeps insertion order), so the stalest come first:
  // forget those out of the window, then, still full, the oldest.
  const prune = (at: number) => {
    for (const [key, times] of attempts) {
      if (attempts.size < MAX_TRACKED_KEYS && (times.at(-1) ?? 0) > at - LIMIT_WINDOW_MS) break;
      attempts.delete(key);
    }
  };
  return {
    async take(key) {
      const at = (now ?? Date.now)();
      const recent = (attempts.get(key) ?? []).filter((time) => time > at - LIMIT_WINDOW_MS);
      if (recent.length >= limit) {
        attempts.set(key, recent);
        const wait = (recent[0] ?? at) + LIMIT_WINDOW_MS - at;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
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
 * A per-client limit's key: IPv4 as it is; IPv6 as its /64, routed whole to one subscriber, phone or server
 * ('2001:db8:0:1::/64'); IPv4-mapped as IPv4; brackets and a zone id dropped; else ('unknown') lower-cased.
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
  return `${ip.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}
