/**
 * The security headers every answer carries, whatever its status: a page, the not-found page, a
 * door's redirect (303), a refusal (405, 413, 429), the admin's 401, a link's page. The static
 * host's `_headers` (scripts/vite-plugins/security-headers.ts) sends the same values with each
 * built file; the Worker adds them to its own answers, keeping any an answer sets itself (a link's
 * page keeps its stricter `no-referrer` and its own policy).
 */

/** Sent with every answer, by the static host and by the Worker alike. */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // Powerful features the site never uses, switched off for it and anything it embeds.
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
} as const;

/**
 * The policy of an answer that sets none: a redirect or a refusal's text or JSON loads nothing and
 * is never framed. An HTML page without one (a page the host serves without `_headers`) carries
 * its own in a <meta>, which cannot say `frame-ancestors`: it gets only that.
 */
const POLICY_FOR_AN_ANSWER =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const POLICY_FOR_A_PAGE = "frame-ancestors 'none'";

/** The answer with every security header it lacks. */
export function withSecurityHeaders(response: Response): Response {
  const isPage = response.headers.get('content-type')?.startsWith('text/html') ?? false;
  const wanted: [string, string][] = [
    ...Object.entries(SECURITY_HEADERS),
    ['Content-Security-Policy', isPage ? POLICY_FOR_A_PAGE : POLICY_FOR_AN_ANSWER],
  ];
  const missing = wanted.filter(([name]) => !response.headers.has(name));
  if (missing.length === 0) return response;
  // An answer from the assets (or fetch) has immutable headers: a copy takes them.
  const answer = new Response(response.body, response);
  for (const [name, value] of missing) answer.headers.set(name, value);
  return answer;
}
