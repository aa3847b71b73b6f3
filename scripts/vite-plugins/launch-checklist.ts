/** A production build prints the launch checklist as a warning while any item fails. */
import type { Plugin } from 'vite';
import { buildEnv, launchChecklist } from '#scripts/launch-kit/checklist.ts';

export function launchChecklistWarning(): Plugin {
  return {
    name: 'podling:launch-checklist',
    apply: 'build',
    // Once per build: when the client is built (not again for the SSR prerender environment).
    applyToEnvironment: (environment) => environment.name === 'client',
    buildStart() {
      const { config } = this.environment;
      if (config.mode !== 'production') return;
      const checklist = launchChecklist(buildEnv(config.envDir || config.root, config.mode), config.root);
      if (!checklist.ok) {
        config.logger.warn(
          ['', ...checklist.lines, 'Run `npm run launch-check` before going live.', ''].join('\n'),
        );
      }
    },
  };
}
