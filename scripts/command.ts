/**
 * The project's Node commands are TypeScript modules run by tsx (`node --import tsx <file.ts>`).
 * Each exports `main(argv)` for its tests and ends with `runAsCommand(import.meta.url, main)`, which
 * calls it only when the module is the file Node was started with; a returned number is the exit code.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Main = (argv: string[]) => number | undefined | Promise<number | undefined>;

export function isCommand(moduleUrl: string, entry: string | undefined = process.argv[1]): boolean {
  if (!entry) return false;
  try {
    return pathToFileURL(realpathSync(entry)).href === moduleUrl;
  } catch {
    return false;
  }
}

export function runAsCommand(moduleUrl: string, main: Main): void {
  if (!isCommand(moduleUrl)) return;
  Promise.resolve()
    .then(() => main(process.argv.slice(2)))
    .then(
      (code) => {
        if (typeof code === 'number') process.exitCode = code;
      },
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
}
