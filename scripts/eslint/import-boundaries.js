// @ts-check
/**
 * ESLint rule `local/import-boundaries`: the project's one import dialect, and the architecture's
 * import rules checked on resolved paths.
 *
 * One dialect, the same in the app, the server code, the Node tools and the tests, and plain
 * Node ESM, so Vite, Vitest, Playwright, wrangler, tsx and TypeScript all read it alike:
 * - a project file is named in full, extension included ('./field.tsx', not './field');
 * - a file in the importer's own folder or below is imported relatively ('./x.ts');
 * - anything else through package.json `imports`: '#src/…', '#scripts/…', '#tests/…'.
 *   No '../', and no '@/' alias. `eslint --fix` rewrites a wrong spelling.
 *
 * Architecture (files in src/ only):
 * - Imports flow one way: config/lib/content/components → features → pages → app.
 * - Features never import each other.
 * - src/server/ runs on the host: it may use src/config and src/lib only; nothing else in src/
 *   imports src/server/.
 * - `airtable` and `react-ga4` are each imported from one module only, statically or dynamically.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');
/** package.json `imports`: '#src/*' → './src/*', and so on. */
const IMPORT_ROOTS = /** @type {Record<string, string>} */ (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).imports
);
/** vi.mock('…') and its kin name a module too. */
const VI_MODULE_CALLS = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock']);
/** Extensions tried when a specifier leaves the file's name incomplete (as bundlers would). */
const GUESSED_EXTENSIONS = ['.ts', '.tsx', '.mjs', '.js'];

/** @param {string} file */
const isFile = (file) => fs.existsSync(file) && fs.statSync(file).isFile();

/**
 * The absolute path a project specifier names as written (query dropped), or null for a package.
 * @param {string} specifier @param {string} fromFile
 */
function pathNamed(specifier, fromFile) {
  const bare = specifier.split('?')[0] ?? specifier;
  if (bare.startsWith('@/')) return path.join(SRC, bare.slice(2));
  if (bare === '.' || bare === '..' || bare.startsWith('./') || bare.startsWith('../'))
    return path.resolve(path.dirname(fromFile), bare);
  if (bare.startsWith('#')) {
    for (const [pattern, target] of Object.entries(IMPORT_ROOTS)) {
      const prefix = pattern.replace(/\*$/, '');
      if (bare.startsWith(prefix))
        return path.resolve(ROOT, target.replace(/\*$/, '') + bare.slice(prefix.length));
    }
  }
  return null;
}

/** The file a specifier means, completing a missing extension or index file; null if none. @param {string} named */
function fileMeant(named) {
  if (isFile(named)) return named;
  for (const extension of GUESSED_EXTENSIONS) if (isFile(named + extension)) return named + extension;
  for (const extension of GUESSED_EXTENSIONS)
    if (isFile(path.join(named, `index${extension}`))) return path.join(named, `index${extension}`);
  return null;
}

/**
 * How `fromFile` should spell an import of `target` (both absolute): './…' inside its own folder,
 * otherwise the package.json `imports` root that holds it; null when no root does.
 * @param {string} fromFile @param {string} target
 */
function dialectSpecifier(fromFile, target) {
  const relative = path.relative(path.dirname(fromFile), target).split(path.sep).join('/');
  if (!relative.startsWith('../')) return `./${relative}`;
  for (const [pattern, mapped] of Object.entries(IMPORT_ROOTS)) {
    const folder = path.resolve(ROOT, mapped.replace(/\*$/, ''));
    const inside = path.relative(folder, target).split(path.sep).join('/');
    if (!inside.startsWith('../') && !path.isAbsolute(inside)) return pattern.replace(/\*$/, '') + inside;
  }
  return null;
}

/**
 * Why `specifier` in `fromFile` is not the project's dialect, and its right spelling; null if it
 * is, or if it names no project file (a package, or a file TypeScript will report as missing).
 * @param {string} specifier @param {string} fromFile
 * @returns {{ message: string, fixed: string | null } | null}
 */
function dialectProblem(specifier, fromFile) {
  const named = pathNamed(specifier, fromFile);
  if (!named) return null;
  const meant = fileMeant(named);
  if (!meant) return null;
  const query = specifier.includes('?') ? specifier.slice(specifier.indexOf('?')) : '';
  const right = dialectSpecifier(fromFile, meant);
  const fixed = right === null ? null : right + query;
  if (specifier.startsWith('@/'))
    return { message: `The '@/' alias is gone: import '${fixed ?? specifier}'.`, fixed };
  if (meant !== named) return { message: `Name the file in full: '${fixed ?? specifier}'.`, fixed };
  if (fixed === null || fixed === specifier) return null;
  return {
    message: fixed.startsWith('./')
      ? `A file in this folder or below is imported relatively: '${fixed}'.`
      : `Import from outside this folder through package.json imports: '${fixed}'.`,
    fixed,
  };
}

/** Layer rank of a top-level folder of src/ (lower never imports higher). */
const RANK = /** @type {Record<string, number>} */ ({
  config: 0,
  lib: 0,
  content: 0,
  components: 0,
  features: 1,
  pages: 2,
  app: 3,
});

/** Packages that only one module may import, and which. */
const SOLE_IMPORTERS = /** @type {Record<string, string>} */ ({
  airtable: 'lib/airtable/client.ts',
  'react-ga4': 'lib/analytics.ts',
});

/**
 * Where a specifier points inside src/, as a path relative to src/; null for packages.
 * @param {string} specifier @param {string} fromFile
 */
function resolveInSrc(specifier, fromFile) {
  const named = pathNamed(specifier, fromFile);
  if (!named) return null;
  const relative = path.relative(SRC, named);
  return relative.startsWith('..') ? null : relative.split(path.sep).join('/');
}

/**
 * Why `from` (relative to src/) may not import `to`, or null.
 * @param {string} from @param {string} to
 * @returns {string | null}
 */
function boundaryViolation(from, to) {
  const [fromTop = '', fromSub = ''] = from.split('/');
  const [toTop = '', toSub = ''] = to.split('/');
  if (toTop === 'server' && fromTop !== 'server')
    return 'src/server/ runs on the host: nothing in the browser imports it.';
  if (fromTop === 'server') {
    return toTop === 'server' || toTop === 'config' || toTop === 'lib'
      ? null
      : 'src/server/ may use src/config and src/lib only, never UI code.';
  }
  const fromRank = RANK[fromTop];
  const toRank = RANK[toTop];
  if (fromRank === undefined || toRank === undefined) return null;
  if (toRank > fromRank) return 'Imports flow config/lib/content/components → features → pages → app.';
  if (fromTop === 'features' && toTop === 'features' && fromSub !== toSub)
    return 'Features never import each other.';
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Enforce the one import dialect, the one-way import flow and the sole importers of vendor clients',
    },
    fixable: 'code',
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const fromInSrc = path.relative(SRC, file).split(path.sep).join('/');
    const inSrc = !fromInSrc.startsWith('..');

    /**
     * @param {import('estree').Node} node @param {import('estree').Node} literal @param {unknown} source
     */
    const check = (node, literal, source) => {
      if (typeof source !== 'string') return;
      const dialect = dialectProblem(source, file);
      if (dialect) {
        const { fixed } = dialect;
        context.report({
          node,
          message: dialect.message,
          ...(fixed === null ? {} : { fix: (fixer) => fixer.replaceText(literal, `'${fixed}'`) }),
        });
        return;
      }
      if (!inSrc) return;
      const sole = SOLE_IMPORTERS[source];
      // A type-only import ships no code: only runtime imports of the package are restricted.
      const typeOnly = /** @type {{ importKind?: string }} */ (node).importKind === 'type';
      if (sole && fromInSrc !== sole && !typeOnly) {
        context.report({ node, message: `Only src/${sole} may import ${source}.` });
        return;
      }
      const target = resolveInSrc(source, file);
      if (!target) return;
      const violation = boundaryViolation(fromInSrc, target);
      if (violation) context.report({ node, message: `${violation} (${fromInSrc} → ${target})` });
    };

    return {
      ImportDeclaration: (node) => check(node, node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source, node.source.value),
      ImportExpression: (node) =>
        node.source.type === 'Literal' && check(node, node.source, node.source.value),
      CallExpression: (node) => {
        const { callee } = node;
        const [first] = node.arguments;
        if (
          callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'vi' &&
          callee.property.type === 'Identifier' &&
          VI_MODULE_CALLS.has(callee.property.name) &&
          first?.type === 'Literal'
        )
          check(node, first, first.value);
      },
    };
  },
};

export default { rules: { 'import-boundaries': rule } };
