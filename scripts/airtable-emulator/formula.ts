/**
 * filterByFormula: the subset of Airtable's formula language the site (and a human poking at
 * the emulator) uses. Tokenizer → precedence-climbing parser → evaluator over one record.
 */
import { ApiError } from './http.ts';
import type { CellValue } from './model.ts';

export type Token =
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'field'; v: string }
  | { t: 'ident'; v: string }
  | { t: 'op'; v: string }
  | { t: 'punct'; v: string };

export type FormulaValue = string | number | boolean | null;

export type FormulaNode =
  | { k: 'lit'; v: FormulaValue }
  | { k: 'field'; name: string }
  | { k: 'call'; name: string; args: FormulaNode[] }
  | { k: 'bin'; op: string; l: FormulaNode; r: FormulaNode }
  | { k: 'neg'; e: FormulaNode };

const INVALID_FORMULA =
  'The formula for filtering records is invalid: Invalid formula. Please check your formula text.';

function formulaError(message = INVALID_FORMULA): never {
  throw new ApiError(422, 'INVALID_FILTER_BY_FORMULA', message);
}

const STRING_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };

/**
 * One token at the current position (sticky): blanks, a quoted string (backslash escapes as
 * Airtable reads them), a {field}, a number, a name, an operator or punctuation.
 */
const TOKEN =
  /\s+|(?<str>'(?:\\[^]|[^'\\])*'|"(?:\\[^]|[^"\\])*")|\{(?<field>[^}]*)\}|(?<num>[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)|(?<ident>[A-Za-z_]\w*)|(?<op>!=|<=|>=|[=<>&+\-*/])|(?<punct>[(),])/y;

/** Splits a formula into tokens; 422 INVALID_FILTER_BY_FORMULA on anything unreadable. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const { str, field, num, ident, op, punct } = TOKEN.exec(source)?.groups ?? formulaError();
    if (str !== undefined)
      tokens.push({
        t: 'str',
        v: str.slice(1, -1).replace(/\\([^])/g, (_, c: string) => STRING_ESCAPES[c] ?? c),
      });
    else if (field !== undefined) tokens.push({ t: 'field', v: field });
    else if (num !== undefined) tokens.push({ t: 'num', v: Number(num) });
    else if (ident !== undefined) tokens.push({ t: 'ident', v: ident });
    else if (op !== undefined) tokens.push({ t: 'op', v: op });
    else if (punct !== undefined) tokens.push({ t: 'punct', v: punct });
  }
  return tokens;
}

/** Binary operators by how tightly they bind, loosest first: comparisons, &, + and -, * and /. */
const LEVELS = [['=', '!=', '<', '>', '<=', '>='], ['&'], ['+', '-'], ['*', '/']];
const PRECEDENCE = new Map(
  LEVELS.flatMap((operators, level) => operators.map((op) => [op, level + 1] as const)),
);

/** Parses a formula into a tree; 422 INVALID_FILTER_BY_FORMULA on a syntax error. */
export function parseFormula(source: string): FormulaNode {
  const tokens = tokenize(source);
  let pos = 0;
  const isPunct = (token: Token | undefined, value: string) => token?.t === 'punct' && token.v === value;

  /** The arguments after a function's '(', through its ')'. */
  const callArguments = (): FormulaNode[] => {
    const args: FormulaNode[] = [];
    while (!isPunct(tokens[pos], ')')) {
      if (args.length > 0) {
        if (!isPunct(tokens[pos], ',')) formulaError();
        pos += 1;
      }
      args.push(expression(0));
    }
    pos += 1;
    return args;
  };

  const primary = (): FormulaNode => {
    const token = tokens[pos];
    if (!token) return formulaError();
    pos += 1;
    if (token.t === 'str' || token.t === 'num') return { k: 'lit', v: token.v };
    if (token.t === 'field') return { k: 'field', name: token.v };
    if (token.t === 'op' && token.v === '-') return { k: 'neg', e: primary() };
    if (isPunct(token, '(')) {
      const inner = expression(0);
      if (!isPunct(tokens[pos], ')')) formulaError();
      pos += 1;
      return inner;
    }
    if (token.t === 'ident') {
      const name = token.v.toUpperCase();
      if (!isPunct(tokens[pos], '(')) {
        if (name === 'TRUE' || name === 'FALSE') return { k: 'lit', v: name === 'TRUE' };
        return formulaError();
      }
      pos += 1;
      return { k: 'call', name, args: callArguments() };
    }
    return formulaError();
  };

  const expression = (minPrecedence: number): FormulaNode => {
    let left = primary();
    for (;;) {
      const token = tokens[pos];
      if (token?.t !== 'op') return left;
      const precedence = PRECEDENCE.get(token.v);
      if (precedence === undefined || precedence <= minPrecedence) return left;
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
const asNumber = (value: FormulaValue): number =>
  value === null || value === '' ? 0 : typeof value === 'number' ? value : Number(value);
const truthy = (value: FormulaValue): boolean =>
  typeof value === 'string' ? value.length > 0 : Boolean(value);

/** A date a formula reads (an ISO string, as dateTime cells and date functions give), or null. */
function asDate(value: FormulaValue): Date | null {
  if (value === null || value === '' || typeof value === 'boolean') return null;
  const date = new Date(typeof value === 'number' ? value : String(value));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** What a formula may read besides the cells: the record's own creation time. */
export interface FormulaContext {
  createdTime?: string;
  /** The emulator's clock, for NOW() and TODAY(). */
  now?: () => number;
}

const FUNCTIONS: Readonly<Record<string, (args: FormulaValue[], context: FormulaContext) => FormulaValue>> = {
  LOWER: ([a = null]) => asText(a).toLowerCase(),
  UPPER: ([a = null]) => asText(a).toUpperCase(),
  TRIM: ([a = null]) => asText(a).trim(),
  LEN: ([a = null]) => asText(a).length,
  CONCATENATE: (args) => args.map(asText).join(''),
  AND: (args) => args.length > 0 && args.every(truthy),
  OR: (args) => args.some(truthy),
  NOT: ([a = null]) => !truthy(a),
  TRUE: () => true,
  FALSE: () => false,
  BLANK: () => null,
  // Dates, as ISO strings; a blank date makes the result blank, as in Airtable.
  NOW: (_, context) => new Date((context.now ?? Date.now)()).toISOString(),
  TODAY: (_, context) => new Date((context.now ?? Date.now)()).toISOString().slice(0, 10),
  CREATED_TIME: (_, context) => context.createdTime ?? null,
  DATETIME_PARSE: ([a = null]) => asDate(a)?.toISOString() ?? null,
  IS_BEFORE: ([a = null, b = null]) => {
    const [x, y] = [asDate(a), asDate(b)];
    return x && y ? x.getTime() < y.getTime() : null;
  },
  IS_AFTER: ([a = null, b = null]) => {
    const [x, y] = [asDate(a), asDate(b)];
    return x && y ? x.getTime() > y.getTime() : null;
  },
  FIND: ([needle = null, haystack = null]) => asText(haystack).indexOf(asText(needle)) + 1,
  SEARCH: ([needle = null, haystack = null]) =>
    asText(haystack).toLowerCase().indexOf(asText(needle).toLowerCase()) + 1 || null,
};

/**
 * Field names a formula reads. Unknown functions are refused here, up front: Airtable refuses
 * the formula even when the table is empty and nothing would be evaluated.
 */
export function referencedFields(node: FormulaNode, names = new Set<string>()): Set<string> {
  if (node.k === 'field') names.add(node.name);
  else if (node.k === 'call') {
    if (node.name !== 'IF' && !Object.hasOwn(FUNCTIONS, node.name)) formulaError();
    for (const arg of node.args) referencedFields(arg, names);
  } else if (node.k === 'bin') {
    referencedFields(node.l, names);
    referencedFields(node.r, names);
  } else if (node.k === 'neg') referencedFields(node.e, names);
  return names;
}

function equal(a: FormulaValue, b: FormulaValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return asNumber(a) === asNumber(b);
  return asText(a) === asText(b);
}

const BINARY: Readonly<Record<string, (l: FormulaValue, r: FormulaValue) => FormulaValue>> = {
  '=': equal,
  '!=': (l, r) => !equal(l, r),
  '&': (l, r) => asText(l) + asText(r),
  '+': (l, r) => asNumber(l) + asNumber(r),
  '-': (l, r) => asNumber(l) - asNumber(r),
  '*': (l, r) => asNumber(l) * asNumber(r),
  '/': (l, r) => (asNumber(r) === 0 ? null : asNumber(l) / asNumber(r)),
  '<': (l, r) => asNumber(l) < asNumber(r),
  '>': (l, r) => asNumber(l) > asNumber(r),
  '<=': (l, r) => asNumber(l) <= asNumber(r),
  '>=': (l, r) => asNumber(l) >= asNumber(r),
};

/** Evaluates a parsed formula against one record's cells (a multiple select reads as 'a, b'). */
export function evaluate(
  node: FormulaNode,
  fields: Readonly<Record<string, CellValue>>,
  context: FormulaContext = {},
): FormulaValue {
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'field': {
      const value = fields[node.name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    }
    case 'neg':
      return -asNumber(evaluate(node.e, fields, context));
    case 'call': {
      if (node.name === 'IF') {
        // IF evaluates only the branch it takes.
        const [condition, then, otherwise] = node.args;
        if (!condition) return formulaError();
        const branch = truthy(evaluate(condition, fields, context)) ? then : otherwise;
        return branch ? evaluate(branch, fields, context) : null;
      }
      const fn = FUNCTIONS[node.name];
      if (!fn) return formulaError();
      return fn(
        node.args.map((arg) => evaluate(arg, fields, context)),
        context,
      );
    }
    case 'bin': {
      const operator = BINARY[node.op];
      if (!operator) return formulaError();
      return operator(evaluate(node.l, fields, context), evaluate(node.r, fields, context));
    }
  }
}

/**
 * Compiles filterByFormula into a record predicate; throws 422 INVALID_FILTER_BY_FORMULA like
 * Airtable for syntax errors, unknown functions and field names the table does not have.
 */
export function compileFormula(
  formula: string,
  fieldNames: Iterable<string>,
): (record: { fields: Readonly<Record<string, CellValue>>; createdTime?: string }) => boolean {
  const tree = parseFormula(formula);
  const known = new Set(fieldNames);
  const unknown = [...referencedFields(tree)].filter((name) => !known.has(name));
  if (unknown.length > 0) formulaError(`Unknown field names: ${unknown.join(', ')}`);
  return (record) => truthy(evaluate(tree, record.fields, { createdTime: record.createdTime }));
}
