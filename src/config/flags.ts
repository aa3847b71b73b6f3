import { env } from './settings.ts';

export { type FeatureFlag } from './settings.ts';

/** This build's feature flags (VITE_FEATURE_<NAME>, defaults from spec section 6). */
export const flags = env.flags;
