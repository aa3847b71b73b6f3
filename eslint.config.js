import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The import rules (decisions 0010 and 0016), as module names a file may not write, on ESLint's own
// no-restricted-syntax. With '../' refused, a name says where it points: '#src/features/…' is in
// src/features/, './x.ts' in the file's own folder, so the rules read names, not resolved paths.

/** Where a module is named: import and export … from, import(), and vi.mock() and its kin. */
const NAMED_MODULE =
  ':matches(ImportDeclaration, ExportNamedDeclaration, ExportAllDeclaration, ImportExpression) > Literal.source, ' +
  'CallExpression[callee.object.name="vi"][callee.property.name=/^(mock|doMock|unmock|doUnmock|importActual|importMock)$/] > Literal:first-child';
/** A module name a file may not write, matched by `pattern`, and why. */
const refuse = (pattern, message) => ({
  selector: `:matches(${NAMED_MODULE})[value=/${pattern.source}/]`,
  message,
});

/** The one import dialect (decision 0010), in every file. */
const DIALECT = [
  refuse(/^\.\.(\/|$)/, "No '../': import from outside this folder as '#src/…', '#scripts/…' or '#tests/…'."),
  refuse(/^@\//, "The '@/' alias is gone: import '#src/…'."),
  refuse(
    /^(?=\.\/|#)(?!.*\/[^/?]*\.\w+(\?.*)?$)/,
    "Name the file in full, extension included ('./field.tsx').",
  ),
];
/** Layer of each top-level folder of src/: a folder never imports one of a higher layer. */
const LAYERS = { config: 0, lib: 0, content: 0, components: 0, features: 1, pages: 2, app: 3 };
/** Packages only one module may import (a type-only import ships no code, so it is allowed). */
const SOLE_IMPORTERS = { airtable: 'src/lib/airtable/client.ts', 'react-ga4': 'src/lib/analytics.ts' };

/** What a file in `folder` (relative to the root, '' for the root) may not import. */
function importRules(folder, file = '') {
  const [root, top, feature] = folder.split('/');
  const rules = [...DIALECT];
  if (['', 'src', 'scripts', 'tests'].includes(root))
    rules.push(
      refuse(
        new RegExp(folder ? `^#${folder}/` : '^#'),
        "A file in this folder or below is imported relatively: './…'.",
      ),
    );
  if (root !== 'src') return rules;
  if (top === 'server')
    rules.push(
      refuse(/^#src\/(?!server\/|config\/|lib\/)/, 'src/server/ may use src/config and src/lib only.'),
    );
  else
    rules.push(refuse(/^#src\/server\//, 'src/server/ runs on the host: nothing in the browser imports it.'));
  const higher = Object.keys(LAYERS).filter((name) => LAYERS[name] > (LAYERS[top] ?? 3));
  if (top !== 'server' && higher.length > 0)
    rules.push(
      refuse(
        new RegExp(`^#src/(${higher.join('|')})/`),
        'Imports flow config/lib/content/components → features → pages → app.',
      ),
    );
  if (top === 'features' && feature)
    rules.push(refuse(new RegExp(`^#src/features/(?!${feature}/)`), 'Features never import each other.'));
  for (const [name, sole] of Object.entries(SOLE_IMPORTERS)) {
    if (file === sole) continue;
    const message = `Only ${sole} may import ${name}.`;
    rules.push(
      { selector: `ImportDeclaration[importKind!="type"] > Literal.source[value="${name}"]`, message },
      {
        selector: `:matches(ExportNamedDeclaration, ExportAllDeclaration, ImportExpression) > Literal.source[value="${name}"]`,
        message,
      },
    );
  }
  return rules;
}

/** Every folder of src/, scripts/ and tests/: the import rules differ by folder. */
const folders = (folder) => [
  folder,
  ...fs
    .readdirSync(path.join(import.meta.dirname, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => folders(path.posix.join(folder, entry.name))),
];
/** One block per folder (a rule's options are replaced, not merged, by a later block). */
const IMPORT_RULES = [
  { files: ['**/*.{js,mjs,ts,tsx}'], rules: { 'no-restricted-syntax': ['error', ...DIALECT] } },
  ...['', ...['src', 'scripts', 'tests'].flatMap(folders)].map((folder) => ({
    files: [`${folder ? `${folder}/` : ''}*.{js,mjs,ts,tsx}`],
    rules: { 'no-restricted-syntax': ['error', ...importRules(folder)] },
  })),
  ...Object.values(SOLE_IMPORTERS).map((file) => ({
    files: [file],
    rules: { 'no-restricted-syntax': ['error', ...importRules(path.posix.dirname(file), file)] },
  })),
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-ssr',
      'node_modules',
      '.data',
      '.wrangler',
      'test-results',
      'playwright-report',
      'coverage',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: [
      'src/**/*.{ts,tsx}',
      'tests/unit/**/*.{ts,tsx}',
      'tests/component/**/*.{ts,tsx}',
      'tests/setup/**/*.ts',
    ],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.strict.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // One concern a module on the server: at most 300 lines as Prettier lays them out, comments and
  // blank lines counted (a count that skipped them would reward deleting the why).
  { files: ['src/server/**/*.ts'], rules: { 'max-lines': ['error', { max: 300 }] } },
  // One import dialect everywhere: full file names, './' inside a file's own folder and '#src/',
  // '#scripts/', '#tests/' otherwise; in src/, one-way flow, features apart, src/server/ kept off
  // the page, and airtable / react-ga4 each imported from one module (decision 0016).
  ...IMPORT_RULES,
  {
    files: [
      'scripts/**/*.{js,mjs,ts}',
      'tests/integration/**/*.ts',
      'tests/e2e/**/*.{ts,mjs}',
      'tests/*.mjs',
      'tests/runner/**/*.{ts,mjs}',
      '*.config.{js,ts}',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
);
