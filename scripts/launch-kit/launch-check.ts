/**
 * `npm run launch-check`: everything that must be real before launch, one line each, exit 1
 * while any item fails. Placeholders are read from their marks where they are defined
 * (placeholder() in src/config/site.ts), the legal review from src/content/legal/review.ts,
 * the rest from the build's environment (.env files and the shell, as `vite build` reads them).
 * The checklist itself is scripts/launch-kit/checklist.ts, which the production build prints too.
 */
import path from 'node:path';
import { buildEnv, launchChecklist } from './checklist.ts';
import { runAsCommand } from '#scripts/command.ts';

/** The command: prints the checklist; exit code 1 while any item fails. */
export function main(): number {
  const checklist = launchChecklist(buildEnv(path.resolve('.')));
  for (const line of checklist.lines) console.log(line);
  return checklist.ok ? 0 : 1;
}

runAsCommand(import.meta.url, main);
