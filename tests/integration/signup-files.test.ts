// @vitest-environment node
/**
 * The files one waitlist sign-up runs, from the click to the confirmed record, JavaScript on
 * (issue 55): those that really load, the browser's and the Worker's, and the walk that
 * docs/architecture.md follows through them.
 *
 * - Loaded: the browser's side of the submit (the form's component and the static graph of the
 *   module it calls, send-form.ts), and the Worker's: the static graph of its entry (worker.ts,
 *   the desk included, as Cloudflare loads it) and of the modules the sign-up's path loads on
 *   demand (the desk's round writer, the link's door). Direct mode's storage layer, the dead
 *   letters, the privacy jobs and the team inbox are dynamic imports this path never takes.
 * - The walk: the table of docs/architecture.md, at most 22 files, every one of them loaded.
 * - The other way: every Worker file that loads and is not a step is named on the page (what the
 *   steps lean on), so the page cannot leave out a module the sign-up runs.
 * - Hops back up: imports (type and dynamic ones included) from a step of the walk into a module
 *   of an earlier step (issue 55 counted 11 on 84f475b: `queue-writer.ts` → `request-check.ts`…).
 *
 * `SIGNUP_FILES=1 npx vitest run tests/integration/signup-files.test.ts` prints the lists.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The files that load, a ratchet: 64 when the server was put in wings; 63 with the one retry rule and
 * the form's states stylesheet linked when idle (issue 57).
 */
const LOADED_CEILING = 60;
/** The walk docs/architecture.md follows. */
const WALK_CEILING = 22;
const HOPS_CEILING = 3;

const BROWSER = ['src/features/waitlist/waitlist-form.tsx', 'src/lib/forms/send-form.ts'];
const WORKER = ['src/server/worker.ts', 'src/server/desk/round-writer.ts', 'src/server/links/actions.ts'];

/** The static import graph of `entries`, our files only. */
async function staticGraph(entries: string[]): Promise<Set<string>> {
  const { metafile } = await build({
    entryPoints: entries,
    bundle: true,
    write: false,
    metafile: true,
    splitting: true,
    outdir: 'out',
    platform: 'neutral',
    format: 'esm',
    packages: 'external',
    // A `?url` import is an address (a stylesheet linked later), not a module that runs.
    external: ['cloudflare:*', 'node:*', '*?url'],
    jsx: 'automatic',
    logLevel: 'silent',
    loader: { '.css': 'empty', '.svg': 'empty', '.png': 'empty', '.webp': 'empty', '.woff2': 'empty' },
  });
  const inputs: Metafile['inputs'] = metafile.inputs;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !inputs[file]) return;
    seen.add(file);
    for (const edge of inputs[file].imports)
      if (edge.kind !== 'dynamic-import' && !edge.external) visit(edge.path);
  };
  for (const entry of entries) visit(entry);
  return seen;
}

/** Every import of our file `file` (static, type-only and dynamic), as paths from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import\()\s*'([^']+\.tsx?)'/g)].map((match) => match[1] ?? '');
  return found.flatMap((spec) =>
    spec.startsWith('#src/')
      ? [spec.slice(1)]
      : spec.startsWith('.')
        ? [path.posix.normalize(path.posix.join(path.posix.dirname(file), spec))]
        : [],
  );
}

/** The imports (type and dynamic ones included) from a step of the walk into an earlier step's module. */
function hopsBackUp(steps: readonly string[]): string[] {
  return steps.flatMap((file, at) =>
    importsOf(file)
      .filter((target) => steps.indexOf(target) >= 0 && steps.indexOf(target) < at)
      .map((target) => `${file} → ${target}`),
  );
}

/** The files of the walk, in its order: the table's second column. */
function walk(): string[] {
  const doc = readFileSync('docs/architecture.md', 'utf8');
  return [...doc.matchAll(/^\| \d+ +\| `([^`]+)`/gm)].map((match) => match[1] ?? '');
}

describe('the files one sign-up runs', () => {
  it(`load ${LOADED_CEILING} at most; the walk names ${WALK_CEILING} at most, with ${HOPS_CEILING} hops back up at most`, async () => {
    const loaded = new Set([...(await staticGraph(BROWSER)), ...(await staticGraph(WORKER))]);
    const steps = walk();
    const hops = hopsBackUp(steps);
    if (process.env.SIGNUP_FILES) {
      console.log(`Loaded (${loaded.size}):\n  ${[...loaded].sort().join('\n  ')}`);
      console.log(`The walk (${steps.length}):\n  ${steps.join('\n  ')}`);
      console.log(`Hops back up (${hops.length}):\n  ${hops.join('\n  ')}`);
    }
    expect(loaded.size).toBeLessThanOrEqual(LOADED_CEILING);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThanOrEqual(WALK_CEILING);
    expect(steps.filter((file) => !loaded.has(file))).toEqual([]);
    expect(hops.length).toBeLessThanOrEqual(HOPS_CEILING);
    const doc = readFileSync('docs/architecture.md', 'utf8');
    const unnamed = [...loaded].filter(
      (file) =>
        file.startsWith('src/server/') &&
        !steps.includes(file) &&
        !doc.includes(`\`${file.slice('src/server/'.length)}\``),
    );
    expect(unnamed).toEqual([]);
    // The count is of real files: the Worker's entry, the form's submit and the confirming write.
    expect(loaded).toContain('src/server/worker.ts');
    expect(loaded).toContain('src/lib/forms/send-form.ts');
    expect(loaded).toContain('src/server/privacy/consent-records.ts');
  });
});
