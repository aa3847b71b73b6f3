// @vitest-environment node
/**
 * The bounds of tests/runner/bounds.mjs (in `npm run test:static`): each one found where it is
 * broken, in a throwaway tree, and README.md, scripts/ and src + scripts within theirs here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  brokenBounds,
  importCircles,
  importGraph,
  LINES_MAX,
  linesUnder,
  looseScripts,
  LOOSE_SCRIPTS_MAX,
  README_MAX_LINES,
  readmeLines,
} from '#tests/runner/bounds.mjs';

/** A throwaway project root holding `files` (path → text). */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bounds-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('no import circle', () => {
  it('finds a circle of types one way and import() the other, named by #src and ./ alike', () => {
    const root = tree({
      'src/desk/desk.ts': "export const erase = async () => (await import('#src/desk/erasure.ts')).run();",
      'src/desk/erasure.ts':
        "import type { Desk } from './desk.ts';\nexport const run = (desk?: Desk) => desk;",
      'src/lone.ts': "import { erase } from './desk/desk.ts';\nimport 'airtable';\nexport { erase };",
    });
    expect(importCircles(importGraph(root, ['src']))).toEqual([
      ['src/desk/desk.ts', 'src/desk/erasure.ts', 'src/desk/desk.ts'],
    ]);
  });

  it('finds each circle once, the shortest way round, and none in a tree that only flows one way', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts', 'e.ts']],
      ['e.ts', ['e.ts']],
      ['f.ts', ['a.ts']],
    ]);
    expect(importCircles(graph)).toEqual([
      ['e.ts', 'e.ts'],
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
    ]);
    expect(
      importCircles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('README.md, scripts/ and the lines', () => {
  it(`are broken by a README of ${README_MAX_LINES + 1} lines, ${LOOSE_SCRIPTS_MAX + 1} loose scripts and a line too many`, () => {
    const loose = Object.fromEntries(
      Array.from({ length: LOOSE_SCRIPTS_MAX + 1 }, (_, index) => [`scripts/tool-${index}.ts`, '']),
    );
    const { server, code } = LINES_MAX;
    const root = tree({
      'README.md': 'line\n'.repeat(README_MAX_LINES + 1),
      'scripts/README.md': '',
      'scripts/kit/cli.ts': 'line\n'.repeat(code.max - server.max),
      'src/server/worker.ts': 'line\n'.repeat(server.max + 1),
      'tests/a.test.ts': '',
      ...loose,
    });
    expect(brokenBounds(root)).toEqual([
      `README.md has ${README_MAX_LINES + 1} lines (at most ${README_MAX_LINES})`,
      `scripts/ has ${LOOSE_SCRIPTS_MAX + 1} loose files (at most ${LOOSE_SCRIPTS_MAX}): ${Object.keys(loose)
        .map((file) => path.basename(file))
        .join(', ')}`,
      `src/server: ${server.max + 1} lines (at most ${server.max})`,
      `src + scripts: ${code.max + 1} lines (at most ${code.max})`,
    ]);
  });

  it('hold here: README.md, scripts/, and src + scripts', () => {
    expect(readmeLines()).toBeLessThanOrEqual(README_MAX_LINES);
    expect(looseScripts().length).toBeLessThanOrEqual(LOOSE_SCRIPTS_MAX);
    expect(linesUnder(LINES_MAX.code.folders)).toBeLessThanOrEqual(LINES_MAX.code.max);
  });
});
