/**
 * The security headers every answer of the Worker carries (SECURITY_HEADERS), whatever its status;
 * an answer that sets its own policy (a link's page) keeps it.
 */
import { SECURITY_HEADERS } from '#src/config/constants.ts';

/**
 * The policy of an answer that sets none: a redirect or a refusal's text or JSON loads nothing and
 * is never framed. An HTML page without one (a page the host serves without `_headers`) carries
 * its own in a <meta>, which cannot say `frame-ancestors`: it gets only that.
 */
const POLICY_FOR_AN_ANSWER =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const POLICY_FOR_A_PAGE = "frame-ancestors 'none'";

/** Adds the SECURITY_HEADERS it lacks (a link's page keeps its stricter `no-referrer` and policy). */
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
