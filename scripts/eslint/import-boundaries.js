// @ts-check
/**
 * ESLint rule `local/import-boundaries`: the architecture's import rules, checked on resolved
 * paths, so `@/features/x`, `../features/x` and `import('../features/x')` are the same import.
 *
 * - Imports flow one way: config/lib/content/components → features → pages → app (DESIGN.md).
 * - Features never import each other.
 * - src/server/ runs on the host: it may use src/config and src/lib only; nothing else in src/
 *   imports src/server/.
 * - `airtable` and `react-ga4` are each imported from one module only, statically or dynamically.
 * - A file that vite.config.ts loads (directly or through other files) is run by Node while the
 *   config is loaded, where the `@/` alias does not exist yet: it imports relatively. The set is
 *   computed from the imports, so no comment has to say which files those are.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');
/** Where Node starts loading the project's TypeScript without the alias. */
const NODE_ENTRIES = [path.join(ROOT, 'vite.config.ts')];
const IMPORT_PATTERN = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** @type {Set<string> | undefined} */
let nodeLoaded;

/** Every file reachable from NODE_ENTRIES through relative imports (absolute paths). */
export function nodeLoadedFiles() {
  if (nodeLoaded) return nodeLoaded;
  const seen = new Set();
  const stack = [...NODE_ENTRIES];
  while (stack.length > 0) {
    const file = /** @type {string} */ (stack.pop());
    if (seen.has(file) || !fs.existsSync(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(IMPORT_PATTERN)) {
      const target = path.resolve(path.dirname(file), /** @type {string} */ (match[1]));
      if (/\.(ts|tsx|js|mjs)$/.test(target)) stack.push(target);
    }
  }
  nodeLoaded = seen;
  return seen;
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
  let absolute;
  if (specifier.startsWith('@/')) absolute = path.join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) absolute = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  const relative = path.relative(SRC, absolute);
  return relative.startsWith('..') ? null : relative.split(path.sep).join('/');
}

/**
 * Why `from` (relative to src/) may not import `to`, or null.
 * @param {string} from @param {string} to
 * @returns {string | null}
 */
export function boundaryViolation(from, to) {
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
        'Enforce the one-way import flow, the sole importers of vendor clients and relative imports in files Node loads',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const fromInSrc = path.relative(SRC, file).split(path.sep).join('/');
    const inSrc = !fromInSrc.startsWith('..');

    /** @param {import('estree').Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (source.startsWith('@/') && nodeLoadedFiles().has(file)) {
        context.report({
          node,
          message: `vite.config.ts loads this file through Node, where '@/' does not resolve: import '${source}' relatively.`,
        });
        return;
      }
      const sole = SOLE_IMPORTERS[source];
      // A type-only import ships no code: only runtime imports of the package are restricted.
      const typeOnly = /** @type {{ importKind?: string }} */ (node).importKind === 'type';
      if (sole && fromInSrc !== sole && !typeOnly) {
        context.report({ node, message: `Only src/${sole} may import ${source}.` });
        return;
      }
      if (!inSrc) return;
      const target = resolveInSrc(source, file);
      if (!target) return;
      const violation = boundaryViolation(fromInSrc, target);
      if (violation) context.report({ node, message: `${violation} (${fromInSrc} → ${target})` });
    };

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'import-boundaries': rule } };
