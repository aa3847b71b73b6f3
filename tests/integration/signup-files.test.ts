// @vitest-environment node
/**
 * How many of our source files one waitlist sign-up crosses, with its confirmation email (issue
 * 39: at most 25, with JavaScript on and off). Counted from the import graph, conservatively:
 *
 * - JavaScript off: every file the Worker loads (src/server/worker.ts's static graph: the door,
 *   the request check, the queue's writer, the mail and everything they import), though a
 *   sign-up runs only part of them (not the privacy jobs, say);
 * - JavaScript on: those, plus the page's side of the submit: the form's component and the
 *   static graph of the module of the function it calls on submit (addToWaitlist in send-form.ts).
 *
 * Direct mode's storage layer is a dynamic import the server mode never loads; packages are not
 * ours. `SIGNUP_FILES=1 npx vitest run tests/integration/signup-files.test.ts` prints the lists.
 */
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const CEILING = 25;

/** The static import graph of `entry`, our files only. */
async function staticGraph(entry: string): Promise<Set<string>> {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    format: 'esm',
    packages: 'external',
    external: ['cloudflare:*', 'node:*'],
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
  visit(entry);
  return seen;
}

describe('the files one sign-up crosses', () => {
  it(`are at most ${CEILING}, with JavaScript off and on`, async () => {
    const worker = await staticGraph('src/server/worker.ts');
    const page = new Set([
      'src/features/waitlist/waitlist-form.tsx',
      ...(await staticGraph('src/lib/forms/send-form.ts')),
    ]);
    const withScript = new Set([...worker, ...page]);
    if (process.env.SIGNUP_FILES) {
      console.log(`JavaScript off (${worker.size}):\n  ${[...worker].sort().join('\n  ')}`);
      const added = [...page].filter((file) => !worker.has(file)).sort();
      console.log(`JavaScript on (${withScript.size}): the above and\n  ${added.join('\n  ')}`);
    }
    expect(worker.size).toBeLessThanOrEqual(CEILING);
    expect(withScript.size).toBeLessThanOrEqual(CEILING);
    // The count is of real files: the Worker's entry and the form's submit are in it.
    expect(worker).toContain('src/server/worker.ts');
    expect(withScript).toContain('src/lib/forms/send-form.ts');
  });
});
