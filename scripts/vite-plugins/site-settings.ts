/**
 * Reads the build's settings once (environment first, then .env files, as Vite does), validates
 * them with src/config/settings.ts and stops `vite dev` / `vite build` with a message naming
 * every bad variable. The app receives the validated object as `__SITE_SETTINGS__`, so only the
 * values it uses are in the bundle: never the whole `import.meta.env`, and in relay mode no
 * Airtable key, base id or endpoint at all.
 */
import { loadEnv, type Plugin } from 'vite';
import { parseSiteSettings, type SiteSettings } from '#src/config/settings.ts';

/** Settings shared by the site's plugins once `config` has run. */
export interface SiteSettingsHolder {
  readonly current: SiteSettings;
}

export function siteSettings(): Plugin & SiteSettingsHolder {
  let resolved: SiteSettings | undefined;
  return {
    name: 'podling:site-settings',
    get current(): SiteSettings {
      if (!resolved) throw new Error('Site settings are read before Vite resolved its config');
      return resolved;
    },
    config(config, { mode }) {
      const root = config.root ?? process.cwd();
      const envDir = typeof config.envDir === 'string' ? config.envDir : root;
      // loadEnv gives variables already in the environment precedence over .env files.
      resolved = parseSiteSettings(loadEnv(mode, envDir, 'VITE_'));
      return { define: { __SITE_SETTINGS__: JSON.stringify(resolved) } };
    },
  };
}
