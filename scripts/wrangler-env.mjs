/**
 * The environment of every local `wrangler dev` the project starts (tests, `npm run loadtest`,
 * the e2e Worker): no usage metrics, and no fetch of Cloudflare's `request.cf` data from
 * workers.cloudflare.com (miniflare then uses its built-in sample), so nothing outside the
 * machine is asked and nothing is logged about a host it cannot reach.
 */
export const WRANGLER_LOCAL_ENV = Object.freeze({
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
});
