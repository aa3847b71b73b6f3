/**
 * The build's settings as the app sees them: validated once by the site-settings Vite plugin
 * (scripts/vite-plugins/site-settings.ts) with src/config/settings.ts, and handed over as one
 * object, so only the values the app uses reach the bundle. Nothing else reads import.meta.env.
 */
import { parseSiteSettings, type SiteSettings } from './settings.ts';

declare const __SITE_SETTINGS__: SiteSettings | undefined;

/** Outside Vite (a tool importing this module directly) the defaults apply. */
export const env: SiteSettings =
  typeof __SITE_SETTINGS__ === 'undefined' ? parseSiteSettings({}) : __SITE_SETTINGS__;
