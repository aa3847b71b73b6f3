/**
 * Each Node command (a TypeScript module run by tsx) exports `main(argv)` for its tests and ends with
 * `runAsCommand(import.meta.url, main)`: run when it is Node's entry file; a number is the exit code.
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
