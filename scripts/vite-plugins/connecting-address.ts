/**
 * `CF-Connecting-IP` in `vite` and `vite preview`, set from the socket whatever the client sent, so
 * the per-client limits (src/server/client-limits.ts) hold. A proxy named in TRUSTED_PROXIES (the
 * browser tests' harness) may name its client in `X-Forwarded-For`.
 */
import ipaddr from 'ipaddr.js';
import type { Connect } from 'vite';

/** Parses TRUSTED_PROXIES: addresses, separated by commas or spaces. */
export function trustedProxies(value: string | undefined): ReadonlySet<string> {
  return new Set(((value ?? '').match(/[^\s,]+/g) ?? []).map(plainAddress));
}

/** One spelling, so a proxy matches however written: '::ffff:127.0.0.1' → '127.0.0.1', 'DB8:0::1' → 'db8::1'. */
function plainAddress(address: string): string {
  return ipaddr.IPv6.isValid(address) ? ipaddr.process(address).toString() : address;
}

/**
 * The socket's address or, from a trusted proxy, the nearest forwarded-for entry that is not one: a
 * client cannot choose its key by sending a header.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | null,
  proxies: ReadonlySet<string>,
): string {
  let address = plainAddress(socketAddress ?? '') || 'unknown';
  if (!proxies.has(address) || !forwardedFor) return address;
  const hops = forwardedFor.split(',').flatMap((hop) => plainAddress(hop.trim()) || []);
  while (proxies.has(address) && hops.length > 0) address = hops.pop() ?? address;
  return address;
}

/** Sets CF-Connecting-IP from the socket (or a trusted proxy's X-Forwarded-For), as Cloudflare does. */
export function connectingAddress(): Connect.NextHandleFunction {
  const proxies = trustedProxies(process.env.TRUSTED_PROXIES);
  return (req, _res, next) => {
    const forwarded = [req.headers['x-forwarded-for'] ?? []].flat().join(',') || null;
    const address = clientAddress(req.socket.remoteAddress, forwarded, proxies);
    // Cloudflare's plugin builds the Worker's request from the raw headers: replace it there too.
    const raw: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
      if (req.rawHeaders[i]?.toLowerCase() !== 'cf-connecting-ip')
        raw.push(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
    raw.push('CF-Connecting-IP', address);
    req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
    req.headers['cf-connecting-ip'] = address;
    next();
  };
}
