/**
 * The environment of every local `wrangler dev` the project starts: no usage metrics, and no fetch
 * of `request.cf` data from workers.cloudflare.com (miniflare uses its built-in sample), so nothing
 * outside the machine is asked and nothing is logged about a host it cannot reach.
 */
export const WRANGLER_LOCAL_ENV = Object.freeze({
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
});
