/**
 * The build's settings, validated once (src/config/settings.ts: a bad variable stops `vite`), reach
 * the app as `__SITE_SETTINGS__`: never the whole `import.meta.env`, and in relay mode no Airtable
 * key, base id or endpoint. A production build warns with the launch checklist while any item fails.
 */
import { loadEnv, type Plugin } from 'vite';
import { parseSiteSettings, type SiteSettings } from '#src/config/settings.ts';
import { buildEnv, launchChecklist } from '#scripts/launch-kit/checklist.ts';

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
    buildStart() {
      const { config, name } = this.environment;
      // Once per production build: when the client is built (not again for the SSR prerender).
      if (config.command !== 'build' || config.mode !== 'production' || name !== 'client') return;
      const checklist = launchChecklist(buildEnv(config.envDir || config.root, config.mode), config.root);
      if (checklist.ok) return;
      config.logger.warn(
        ['', ...checklist.lines, 'Run `npm run launch-check` before going live.', ''].join('\n'),
      );
    },
  };
}
