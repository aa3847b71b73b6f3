/**
 * filterByFormula as far as the site and its tests use it (email lookups, the retention formula):
 * strings, {fields}, numbers, `=`, `!=`, `&` and the functions below; anything else is Airtable's 422.
 */
import { ApiError } from './http.ts';
import type { CellValue } from './base-schema.ts';

export type Token = { t: 'str' | 'field' | 'ident' | 'op' | 'punct'; v: string } | { t: 'num'; v: number };

export type FormulaValue = string | number | boolean | null;

export type FormulaNode =
  | { k: 'lit'; v: FormulaValue }
  | { k: 'field'; name: string }
  | { k: 'call'; name: string; args: FormulaNode[] }
  | { k: 'bin'; op: string; l: FormulaNode; r: FormulaNode };

const INVALID_FORMULA =
  'The formula for filtering records is invalid: Invalid formula. Please check your formula text.';

function formulaError(message = INVALID_FORMULA): never {
  throw new ApiError(422, 'INVALID_FILTER_BY_FORMULA', message);
}

const STRING_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };

/** One sticky token: blanks, a quoted string (escapes as Airtable reads them), {field}, number, name, op. */
const TOKEN =
  /\s+|(?<str>'(?:\\[^]|[^'\\])*'|"(?:\\[^]|[^"\\])*")|\{(?<field>[^}]*)\}|(?<num>[0-9]*\.?[0-9]+)|(?<ident>[A-Za-z_]\w*)|(?<op>!=|[=&])|(?<punct>[(),])/y;

/** Splits a formula into tokens; 422 on anything unreadable. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const groups = TOKEN.exec(source)?.groups ?? formulaError();
    for (const [t, v] of Object.entries(groups)) {
      if (v === undefined) continue;
      if (t === 'num') tokens.push({ t, v: Number(v) });
      else if (t !== 'str') tokens.push({ t: t as Exclude<Token['t'], 'num'>, v });
      else
        tokens.push({ t, v: v.slice(1, -1).replace(/\\([^])/g, (_, c: string) => STRING_ESCAPES[c] ?? c) });
    }
  }
  return tokens;
}

/** How tightly each operator binds: `&` before the comparisons, as in Airtable. */
const PRECEDENCE: Readonly<Record<string, number>> = { '=': 1, '!=': 1, '&': 2 };

/** Parses a formula into a tree; 422 on a syntax error. */
export function parseFormula(source: string): FormulaNode {
  const tokens = tokenize(source);
  let pos = 0;
  const isPunct = (value: string) => tokens[pos]?.t === 'punct' && tokens[pos]?.v === value;
  const expect = (value: string) => {
    if (!isPunct(value)) formulaError();
    pos += 1;
  };

  const primary = (): FormulaNode => {
    const token = tokens[pos] ?? formulaError();
    pos += 1;
    if (token.t === 'str' || token.t === 'num') return { k: 'lit', v: token.v };
    if (token.t === 'field') return { k: 'field', name: token.v };
    if (token.t === 'punct' && token.v === '(') {
      const inner = expression(0);
      expect(')');
      return inner;
    }
    if (token.t !== 'ident') return formulaError();
    const name = token.v.toUpperCase();
    if (!isPunct('('))
      return name === 'TRUE' || name === 'FALSE' ? { k: 'lit', v: name === 'TRUE' } : formulaError();
    // Airtable refuses an unknown function up front, even when nothing would be evaluated.
    if (!Object.hasOwn(FUNCTIONS, name)) formulaError();
    pos += 1;
    const args: FormulaNode[] = [];
    while (!isPunct(')')) {
      if (args.length > 0) expect(',');
      args.push(expression(0));
    }
    pos += 1;
    return { k: 'call', name, args };
  };

  const expression = (minPrecedence: number): FormulaNode => {
    let left = primary();
    for (;;) {
      const token = tokens[pos];
      const precedence = token?.t === 'op' ? (PRECEDENCE[token.v] ?? 0) : 0;
      if (token?.t !== 'op' || precedence <= minPrecedence) return left;
      pos += 1;
      left = { k: 'bin', op: token.v, l: left, r: expression(precedence) };
    }
  };

  const tree = expression(0);
  if (pos !== tokens.length) formulaError();
  return tree;
}

const asText = (value: FormulaValue): string =>
  value === null ? '' : typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
const truthy = (value: FormulaValue): boolean =>
  typeof value === 'string' ? value.length > 0 : Boolean(value);

/** A date a formula reads (an ISO string, as dateTime cells and date functions give), or null. */
function asDate(value: FormulaValue): Date | null {
  if (value === null || value === '' || typeof value === 'boolean') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Compares two dates; a blank or unreadable date makes the answer blank, as in Airtable. */
const compareDates =
  (before: boolean) =>
  ([a = null, b = null]: FormulaValue[]): FormulaValue => {
    const [x, y] = [asDate(a), asDate(b)];
    return x && y ? (before ? x < y : x > y) : null;
  };

/** What a formula may read besides the cells: the record's creation time, and a clock for NOW(). */
export interface FormulaContext {
  createdTime?: string;
  now?: () => number;
}

const FUNCTIONS: Readonly<Record<string, (args: FormulaValue[], context: FormulaContext) => FormulaValue>> = {
  LOWER: ([a = null]) => asText(a).toLowerCase(),
  TRIM: ([a = null]) => asText(a).trim(),
  AND: (args) => args.length > 0 && args.every(truthy),
  OR: (args) => args.some(truthy),
  NOT: ([a = null]) => !truthy(a),
  TRUE: () => true,
  FALSE: () => false,
  BLANK: () => null,
  // Nothing here has side effects, so IF may evaluate both branches.
  IF: ([condition = null, then = null, otherwise = null]) => (truthy(condition) ? then : otherwise),
  NOW: (_, context) => new Date((context.now ?? Date.now)()).toISOString(),
  CREATED_TIME: (_, context) => context.createdTime ?? null,
  DATETIME_PARSE: ([a = null]) => asDate(a)?.toISOString() ?? null,
  IS_BEFORE: compareDates(true),
  IS_AFTER: compareDates(false),
  // SWITCH(expression, pattern, result, …, default): the first pattern equal to the expression.
  SWITCH: ([x = null, ...cases]) => {
    for (let i = 0; i + 1 < cases.length; i += 2) if (equal(x, cases[i] ?? null)) return cases[i + 1] ?? null;
    return cases.length % 2 === 1 ? (cases.at(-1) ?? null) : null;
  },
};

/** Field names a formula reads. */
function referencedFields(node: FormulaNode): string[] {
  if (node.k === 'field') return [node.name];
  if (node.k === 'call') return node.args.flatMap(referencedFields);
  return node.k === 'bin' ? [...referencedFields(node.l), ...referencedFields(node.r)] : [];
}

function equal(a: FormulaValue, b: FormulaValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Number(a ?? 0) === Number(b ?? 0);
  return asText(a) === asText(b);
}

/** Evaluates a parsed formula against one record's cells (a multiple select reads as 'a, b'). */
export function evaluate(
  node: FormulaNode,
  fields: Readonly<Record<string, CellValue>>,
  context: FormulaContext = {},
): FormulaValue {
  const run = (child: FormulaNode) => evaluate(child, fields, context);
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'field': {
      const value = fields[node.name] ?? null;
      return Array.isArray(value) ? value.join(', ') : value;
    }
    case 'call':
      return (FUNCTIONS[node.name] ?? formulaError())(node.args.map(run), context);
    case 'bin': {
      const [l, r] = [run(node.l), run(node.r)];
      return node.op === '&' ? asText(l) + asText(r) : equal(l, r) === (node.op === '=');
    }
  }
}

/** filterByFormula as a record predicate; 422 like Airtable on a syntax error, unknown function or field. */
export function compileFormula(
  formula: string,
  fieldNames: Iterable<string>,
): (record: { fields: Readonly<Record<string, CellValue>>; createdTime?: string }) => boolean {
  const tree = parseFormula(formula);
  const known = new Set(fieldNames);
  const unknown = [...new Set(referencedFields(tree))].filter((name) => !known.has(name));
  if (unknown.length > 0) formulaError(`Unknown field names: ${unknown.join(', ')}`);
  const generic = (record: { fields: Readonly<Record<string, CellValue>>; createdTime?: string }) =>
    truthy(evaluate(tree, record.fields, { createdTime: record.createdTime }));
  const among = oneOfStrings(tree);
  if (!among) return generic;
  // What the generic evaluation gives, with x read once a record: a number compares as a number.
  return (record) => {
    const value = evaluate(among.x, record.fields, { createdTime: record.createdTime });
    if (typeof value === 'number') return generic(record);
    return truthy(among.values.has(asText(value)) ? among.hit : among.miss);
  };
}

/**
 * One x against many texts, as the server's email lookups ask over thousands of records:
 * `OR(x = 'a', x = 'b', …)` or `SWITCH(x, 'a', r, 'b', r, …, d)` (one r, literals): x and its
 * texts, so a record costs one evaluation of x, not one for each text.
 */
function oneOfStrings(
  tree: FormulaNode,
): { x: FormulaNode; values: Set<string>; hit: FormulaValue; miss: FormulaValue } | null {
  if (tree.k !== 'call') return null;
  const values = new Set<string>();
  const text = (node: FormulaNode | undefined) =>
    node?.k === 'lit' && typeof node.v === 'string' ? node.v : undefined;
  if (tree.name === 'SWITCH') {
    const [x, ...cases] = tree.args;
    const hit = cases[1];
    const miss = cases.length % 2 === 1 ? cases.at(-1) : undefined;
    if (!x || hit?.k !== 'lit' || (miss && miss.k !== 'lit')) return null;
    for (let i = 0; i + 1 < cases.length; i += 2) {
      const pattern = text(cases[i]);
      const result = cases[i + 1];
      if (pattern === undefined || result?.k !== 'lit' || result.v !== hit.v) return null;
      values.add(pattern);
    }
    return { x, values, hit: hit.v, miss: miss?.k === 'lit' ? miss.v : null };
  }
  if (tree.name !== 'OR' || tree.args.length < 2) return null;
  const [first] = tree.args;
  if (first?.k !== 'bin') return null;
  const x = first.l;
  const same = JSON.stringify(x);
  for (const arg of tree.args) {
    const pattern = arg.k === 'bin' && arg.op === '=' ? text(arg.r) : undefined;
    if (arg.k !== 'bin' || pattern === undefined || JSON.stringify(arg.l) !== same) return null;
    values.add(pattern);
  }
  return { x, values, hit: true, miss: false };
}
