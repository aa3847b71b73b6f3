import { env } from '@/config/env';

export { FLAG_DEFAULTS, type FeatureFlag } from '@/config/settings';

/** This build's feature flags (VITE_FEATURE_<NAME>, defaults from spec section 6). */
export const flags = env.flags;
