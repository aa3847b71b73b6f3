/**
 * Every local `wrangler dev`'s environment: no usage metrics, no `request.cf` fetch from
 * workers.cloudflare.com (miniflare's sample instead), so nothing outside the machine is asked.
 */
export const WRANGLER_LOCAL_ENV = Object.freeze({
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
});
