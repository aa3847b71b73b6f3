// Local emulator of the slice of the Airtable REST API (v0) that airtable.js uses, so that
// `npm run dev` needs no Airtable account and every test drives the real client over HTTP.
// Development and test tooling only: nothing under src/ imports it, so it never ships in dist/.
//
//   node scripts/airtable-emulator.mjs --port 8787 --data .data/airtable.json
//
// Admin API for tests and humans under /__emulator/ (see ADMIN_HELP below).

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** Fixed local credentials: not secrets, they only open this loopback emulator. */
export const EMULATOR_API_KEY = 'patLocalEmulatorKey.dev';
export const EMULATOR_BASE_ID = 'appLocalEmulator01';
export const EMULATOR_HOST = '127.0.0.1';
export const EMULATOR_DEFAULT_PORT = 8787;
export const EMULATOR_DEFAULT_DATA_FILE = '.data/airtable.json';
export const EMULATOR_ADMIN_PREFIX = '/__emulator';
/** Airtable's documented limit: 5 requests per second per base. */
export const AIRTABLE_RATE_LIMIT_PER_SECOND = 5;

// Mirrors PRODUCT_NAME in src/config/site.ts (an integration test keeps them in step).
const PRODUCT_NAME = 'Podling';
const MAX_BODY_BYTES = 1_000_000;
const MAX_RECORDS_PER_WRITE = 10;
const MAX_PAGE_SIZE = 100;
const REQUEST_LOG_LIMIT = 500;
const CORS_ALLOWED_HEADERS =
  'authorization, content-type, x-airtable-application-id, x-airtable-user-agent, x-api-version';

/**
 * @typedef {'singleLineText' | 'multilineText' | 'email' | 'singleSelect' | 'multipleSelects' | 'dateTime'} FieldType
 * @typedef {{ type: FieldType, choices?: string[] }} FieldSchema
 * @typedef {Record<string, FieldSchema>} TableSchema
 * @typedef {string | string[]} CellValue
 * @typedef {{ id: string, createdTime: string, fields: Record<string, CellValue> }} StoredRecord
 * @typedef {{ records: StoredRecord[], choices: Record<string, string[]> }} TableState
 * @typedef {{
 *   kind?: 'status' | 'hang' | 'drop' | 'invalid-json' | 'delay',
 *   status?: number,
 *   type?: string,
 *   message?: string,
 *   delayMs?: number,
 *   count?: number,
 *   method?: string,
 *   table?: string,
 * }} Fault
 *   A fault applies to the next `count` (default 1) API requests matching `method`/`table`:
 *   'status' answers `status` with an Airtable-style error body, 'hang' never answers, 'drop'
 *   destroys the socket, 'invalid-json' answers `status` (default 502) with an HTML body, 'delay' waits
 *   `delayMs` then answers normally.
 * @typedef {{ rateLimitPerSecond: number, rateLimitPenaltyMs: number, latencyMs: number }} EmulatorConfig
 *   rateLimitPerSecond 0 turns the limit off; rateLimitPenaltyMs keeps answering 429 that long
 *   after a breach (real Airtable: 30 s); latencyMs delays every API answer.
 * @typedef {{ at: string, method: string, path: string, table?: string, status: number }} LoggedRequest
 * @typedef {{
 *   port?: number,
 *   host?: string,
 *   apiKey?: string,
 *   baseId?: string,
 *   dataFile?: string,
 *   rateLimitPerSecond?: number,
 *   rateLimitPenaltyMs?: number,
 *   latencyMs?: number,
 *   log?: (line: string) => void,
 * }} EmulatorOptions
 * @typedef {{
 *   url: string,
 *   port: number,
 *   apiKey: string,
 *   baseId: string,
 *   close: () => Promise<void>,
 *   reset: () => void,
 *   records: (table: string) => StoredRecord[],
 *   seed: (table: string, fields: Record<string, unknown>) => StoredRecord,
 *   addFaults: (...faults: Fault[]) => void,
 *   setConfig: (patch: Partial<EmulatorConfig>) => EmulatorConfig,
 *   requests: () => LoggedRequest[],
 * }} RunningEmulator
 */

/** @param {string[]} extra */
const multiSelect = (...extra) => /** @type {FieldSchema} */ ({ type: 'multipleSelects', choices: extra });

/** Field schemas of the two tables, as the owner's base defines them. */
export const TABLE_SCHEMAS = /** @type {Record<string, TableSchema>} */ ({
  'School Quotes': {
    Email: { type: 'email' },
    'Contact Name': { type: 'singleLineText' },
    'School Name': { type: 'singleLineText' },
    Role: { type: 'singleLineText' },
    'Use Cases': multiSelect('Support Learners', 'Practice Speaking', 'Showcase Creativity'),
    'Other Use Case': { type: 'multilineText' },
    'Created At': { type: 'dateTime' },
    'Last Updated': { type: 'dateTime' },
    Status: { type: 'singleSelect', choices: ['New', 'Contacted', 'Quoted', 'Won', 'Lost'] },
  },
  Waitlist: {
    Email: { type: 'email' },
    Interests: multiSelect(
      `Use ${PRODUCT_NAME}`,
      `Invest in ${PRODUCT_NAME}`,
      `Partner with ${PRODUCT_NAME}`,
      'General Interest',
    ),
    'School Name': { type: 'singleLineText' },
    'Contact Name': { type: 'singleLineText' },
    'Page Source': { type: 'singleLineText' },
    'Created At': { type: 'dateTime' },
    'Last Updated': { type: 'dateTime' },
  },
});

/** An error that becomes an Airtable-style JSON error answer. */
class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} type
   * @param {string} message
   */
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

/** @param {number} status */
function defaultErrorFor(status) {
  /** @type {Record<number, [string, string]>} */
  const known = {
    400: ['INVALID_REQUEST_UNKNOWN', 'Invalid request: parameter validation failed.'],
    401: ['AUTHENTICATION_REQUIRED', 'Authentication required'],
    403: [
      'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
      'Invalid permissions, or the requested model was not found.',
    ],
    404: ['NOT_FOUND', 'Could not find what you are looking for'],
    413: ['REQUEST_TOO_LARGE', 'Request body is too large'],
    422: ['INVALID_REQUEST_UNKNOWN', 'Invalid request: parameter validation failed.'],
    429: ['RATE_LIMIT_REACHED', 'Rate limit exceeded. Please try again later'],
    500: ['SERVER_ERROR', 'Try again. If the problem persists, contact support.'],
    503: ['SERVICE_UNAVAILABLE', 'The service is temporarily unavailable. Please retry shortly.'],
  };
  return known[status] ?? ['UNEXPECTED_ERROR', 'An unexpected error occurred'];
}

// ---------------------------------------------------------------------------------------------
// Formula evaluation: the subset of Airtable's formula language the app (and a human) would use.
// ---------------------------------------------------------------------------------------------

/**
 * @typedef {{ t: 'str', v: string } | { t: 'num', v: number } | { t: 'field', v: string }
 *   | { t: 'ident', v: string } | { t: 'op', v: string } | { t: 'punct', v: string }} Token
 * @typedef {{ k: 'lit', v: FormulaValue } | { k: 'field', name: string }
 *   | { k: 'call', name: string, args: Node[] } | { k: 'bin', op: string, l: Node, r: Node }
 *   | { k: 'neg', e: Node }} Node
 * @typedef {string | number | boolean | null} FormulaValue
 */

const INVALID_FORMULA =
  'The formula for filtering records is invalid: Invalid formula. Please check your formula text.';

/** @returns {never} */
function formulaError(message = INVALID_FORMULA) {
  throw new ApiError(422, 'INVALID_FILTER_BY_FORMULA', message);
}

/** @type {Record<string, string>} */
const STRING_ESCAPES = { n: '\n', r: '\r', t: '\t' };

/** @param {string} source */
function tokenize(source) {
  /** @type {Token[]} */
  const tokens = [];
  let i = 0;
  while (i < source.length) {
    const c = /** @type {string} */ (source[i]);
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === "'" || c === '"') {
      let value = '';
      i += 1;
      for (;;) {
        if (i >= source.length) formulaError();
        const d = /** @type {string} */ (source[i]);
        if (d === '\\') {
          const next = source[i + 1];
          if (next === undefined) formulaError();
          value += STRING_ESCAPES[next] ?? next;
          i += 2;
        } else if (d === c) {
          i += 1;
          break;
        } else {
          value += d;
          i += 1;
        }
      }
      tokens.push({ t: 'str', v: value });
    } else if (c === '{') {
      const end = source.indexOf('}', i + 1);
      if (end < 0) formulaError();
      tokens.push({ t: 'field', v: source.slice(i + 1, end) });
      i = end + 1;
    } else if (/[0-9.]/.test(c)) {
      const match = /^[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?/.exec(source.slice(i));
      if (!match) formulaError();
      tokens.push({ t: 'num', v: Number(match[0]) });
      i += match[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /** @type {RegExpExecArray} */ (/^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i)));
      tokens.push({ t: 'ident', v: match[0] });
      i += match[0].length;
    } else {
      const two = source.slice(i, i + 2);
      if (two === '!=' || two === '<=' || two === '>=') {
        tokens.push({ t: 'op', v: two });
        i += 2;
      } else if ('=<>&+-*/'.includes(c)) {
        tokens.push({ t: 'op', v: c });
        i += 1;
      } else if (c === '(' || c === ')' || c === ',') {
        tokens.push({ t: 'punct', v: c });
        i += 1;
      } else {
        formulaError();
      }
    }
  }
  return tokens;
}

/** @type {Record<string, number>} */
const PRECEDENCE = {
  '=': 1,
  '!=': 1,
  '<': 1,
  '>': 1,
  '<=': 1,
  '>=': 1,
  '&': 2,
  '+': 3,
  '-': 3,
  '*': 4,
  '/': 4,
};

/** @param {string} source @returns {Node} */
function parseFormula(source) {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  /** @param {string} value */
  const expectPunct = (value) => {
    const token = tokens[pos];
    if (!token || token.t !== 'punct' || token.v !== value) formulaError();
    pos += 1;
  };

  /** @returns {Node} */
  const primary = () => {
    const token = tokens[pos];
    if (!token) return formulaError();
    pos += 1;
    if (token.t === 'str' || token.t === 'num') return { k: 'lit', v: token.v };
    if (token.t === 'field') return { k: 'field', name: token.v };
    if (token.t === 'op' && token.v === '-') return { k: 'neg', e: primary() };
    if (token.t === 'punct' && token.v === '(') {
      const inner = expression(0);
      expectPunct(')');
      return inner;
    }
    if (token.t === 'ident') {
      const name = token.v.toUpperCase();
      const next = peek();
      if (!next || next.t !== 'punct' || next.v !== '(') {
        if (name === 'TRUE' || name === 'FALSE') return { k: 'lit', v: name === 'TRUE' };
        return formulaError();
      }
      pos += 1;
      /** @type {Node[]} */
      const args = [];
      const close = peek();
      if (close && close.t === 'punct' && close.v === ')') {
        pos += 1;
      } else {
        for (;;) {
          args.push(expression(0));
          const separator = tokens[pos];
          pos += 1;
          if (separator && separator.t === 'punct' && separator.v === ')') break;
          if (!separator || separator.t !== 'punct' || separator.v !== ',') formulaError();
        }
      }
      return { k: 'call', name, args };
    }
    return formulaError();
  };

  /** @param {number} minPrecedence @returns {Node} */
  const expression = (minPrecedence) => {
    let left = primary();
    for (;;) {
      const token = peek();
      if (!token || token.t !== 'op') break;
      const precedence = PRECEDENCE[token.v];
      if (precedence === undefined || precedence <= minPrecedence) break;
      pos += 1;
      const right = expression(precedence);
      left = { k: 'bin', op: token.v, l: left, r: right };
    }
    return left;
  };

  const tree = expression(0);
  if (pos !== tokens.length) formulaError();
  return tree;
}

/**
 * Collects field names, and rejects unknown functions up front: Airtable refuses the formula
 * even when the table is empty and nothing would be evaluated.
 * @param {Node} node
 * @param {Set<string>} names
 */
function collectFieldNames(node, names) {
  if (node.k === 'field') names.add(node.name);
  else if (node.k === 'call') {
    if (node.name !== 'IF' && !Object.hasOwn(FUNCTIONS, node.name)) formulaError();
    node.args.forEach((arg) => collectFieldNames(arg, names));
  } else if (node.k === 'bin') {
    collectFieldNames(node.l, names);
    collectFieldNames(node.r, names);
  } else if (node.k === 'neg') collectFieldNames(node.e, names);
}

/** @param {FormulaValue} value */
const asText = (value) =>
  value === null ? '' : typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
/** @param {FormulaValue} value */
const asNumber = (value) =>
  value === null || value === '' ? 0 : typeof value === 'number' ? value : Number(value);
/** @param {FormulaValue} value */
const truthy = (value) => (typeof value === 'string' ? value.length > 0 : Boolean(value));

/** @type {Record<string, (args: FormulaValue[]) => FormulaValue>} */
const FUNCTIONS = {
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
  FIND: ([needle = null, haystack = null]) => asText(haystack).indexOf(asText(needle)) + 1,
  SEARCH: ([needle = null, haystack = null]) =>
    asText(haystack).toLowerCase().indexOf(asText(needle).toLowerCase()) + 1 || null,
};

/** @param {FormulaValue} a @param {FormulaValue} b */
function equal(a, b) {
  if (typeof a === 'number' || typeof b === 'number') return asNumber(a) === asNumber(b);
  return asText(a) === asText(b);
}

/**
 * @param {Node} node
 * @param {Record<string, CellValue>} fields
 * @returns {FormulaValue}
 */
function evaluate(node, fields) {
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'field': {
      const value = fields[node.name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    }
    case 'neg':
      return -asNumber(evaluate(node.e, fields));
    case 'call': {
      if (node.name === 'IF') {
        const [condition, then, otherwise] = node.args;
        if (!condition) return formulaError();
        if (truthy(evaluate(condition, fields))) return then ? evaluate(then, fields) : null;
        return otherwise ? evaluate(otherwise, fields) : null;
      }
      const fn = FUNCTIONS[node.name];
      if (!fn) return formulaError();
      return fn(node.args.map((arg) => evaluate(arg, fields)));
    }
    case 'bin': {
      const l = evaluate(node.l, fields);
      const r = evaluate(node.r, fields);
      switch (node.op) {
        case '=':
          return equal(l, r);
        case '!=':
          return !equal(l, r);
        case '&':
          return asText(l) + asText(r);
        case '+':
          return asNumber(l) + asNumber(r);
        case '-':
          return asNumber(l) - asNumber(r);
        case '*':
          return asNumber(l) * asNumber(r);
        case '/':
          return asNumber(r) === 0 ? null : asNumber(l) / asNumber(r);
        case '<':
          return asNumber(l) < asNumber(r);
        case '>':
          return asNumber(l) > asNumber(r);
        case '<=':
          return asNumber(l) <= asNumber(r);
        case '>=':
          return asNumber(l) >= asNumber(r);
        default:
          return formulaError();
      }
    }
  }
}

/**
 * Compiles filterByFormula into a record predicate; throws 422 INVALID_FILTER_BY_FORMULA like
 * Airtable for syntax errors and unknown field names.
 * @param {string} formula
 * @param {TableSchema} schema
 * @returns {(record: StoredRecord) => boolean}
 */
export function compileFormula(formula, schema) {
  const tree = parseFormula(formula);
  const names = new Set(/** @type {string[]} */ ([]));
  collectFieldNames(tree, names);
  const unknown = [...names].filter((name) => !Object.hasOwn(schema, name));
  if (unknown.length > 0) formulaError(`Unknown field names: ${unknown.join(', ')}`);
  return (record) => truthy(evaluate(tree, record.fields));
}

// ---------------------------------------------------------------------------------------------
// Cell validation with Airtable's error types.
// ---------------------------------------------------------------------------------------------

/**
 * Validates and normalises one cell; `undefined` means "empty" (Airtable omits empty cells).
 * With typecast, unknown select options are added to the field's choices, as Airtable does.
 * @param {string} name
 * @param {FieldSchema} schema
 * @param {string[]} choices
 * @param {unknown} value
 * @param {boolean} typecast
 * @returns {CellValue | undefined}
 */
function normaliseCell(name, schema, choices, value, typecast) {
  const invalid = () =>
    new ApiError(422, 'INVALID_VALUE_FOR_COLUMN', `Field "${name}" cannot accept the provided value`);
  if (value === null || value === undefined || value === '') return undefined;
  /** @param {string} option */
  const ensureChoice = (option) => {
    if (choices.includes(option)) return;
    if (!typecast) {
      throw new ApiError(
        422,
        'INVALID_MULTIPLE_CHOICE_OPTIONS',
        `Insufficient permissions to create new select option ""${option}""`,
      );
    }
    choices.push(option);
  };
  switch (schema.type) {
    case 'singleLineText':
    case 'multilineText':
    case 'email': {
      if (typeof value === 'string') return value;
      if (typecast && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
      if (typecast && Array.isArray(value)) return value.map(String).join(', ');
      throw invalid();
    }
    case 'singleSelect': {
      if (typeof value !== 'string') throw invalid();
      ensureChoice(value);
      return value;
    }
    case 'multipleSelects': {
      /** @type {unknown[]} */
      let items;
      if (Array.isArray(value)) items = value;
      else if (typecast && typeof value === 'string') items = value.split(',').map((item) => item.trim());
      else throw invalid();
      /** @type {string[]} */
      const options = [];
      for (const item of items) {
        if (typeof item !== 'string') throw invalid();
        if (item === '' || options.includes(item)) continue;
        ensureChoice(item);
        options.push(item);
      }
      return options.length > 0 ? options : undefined;
    }
    case 'dateTime': {
      if (typeof value !== 'string' && typeof value !== 'number') throw invalid();
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) throw invalid();
      return date.toISOString();
    }
  }
}

/** @returns {string} */
const newRecordId = () => `rec${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x').slice(0, 14)}`;

/**
 * Starts the emulator. Resolves once it listens; `port: 0` picks a free port (tests).
 * @param {EmulatorOptions} [options]
 * @returns {Promise<RunningEmulator>}
 */
export async function startEmulator(options = {}) {
  const host = options.host ?? EMULATOR_HOST;
  const apiKey = options.apiKey ?? EMULATOR_API_KEY;
  const baseId = options.baseId ?? EMULATOR_BASE_ID;
  const dataFile = options.dataFile ? path.resolve(options.dataFile) : undefined;
  const log = options.log ?? (() => undefined);
  /** @type {EmulatorConfig} */
  const initialConfig = {
    rateLimitPerSecond: options.rateLimitPerSecond ?? AIRTABLE_RATE_LIMIT_PER_SECOND,
    rateLimitPenaltyMs: options.rateLimitPenaltyMs ?? 0,
    latencyMs: options.latencyMs ?? 0,
  };
  let config = { ...initialConfig };

  /** @type {Record<string, TableState>} */
  let tables = {};
  /** @type {Fault[]} */
  let faults = [];
  /** @type {LoggedRequest[]} */
  let requestLog = [];
  /** @type {number[]} */
  let recentHits = [];
  let penaltyUntil = 0;
  /** Hung answers, ended on close so the server can stop. */
  const hung = new Set(/** @type {http.ServerResponse[]} */ ([]));

  const emptyTables = () => {
    /** @type {Record<string, TableState>} */
    const fresh = {};
    for (const [table, schema] of Object.entries(TABLE_SCHEMAS)) {
      /** @type {Record<string, string[]>} */
      const choices = {};
      for (const [field, fieldSchema] of Object.entries(schema)) {
        if (fieldSchema.choices) choices[field] = [...fieldSchema.choices];
      }
      fresh[table] = { records: [], choices };
    }
    return fresh;
  };

  const load = () => {
    tables = emptyTables();
    if (!dataFile || !fs.existsSync(dataFile)) return;
    const saved = /** @type {{ tables?: Record<string, Partial<TableState>> }} */ (
      JSON.parse(fs.readFileSync(dataFile, 'utf8'))
    );
    for (const [name, state] of Object.entries(saved.tables ?? {})) {
      const table = tables[name];
      if (!table) continue;
      table.records = Array.isArray(state.records) ? state.records : [];
      for (const [field, options] of Object.entries(state.choices ?? {})) {
        const known = table.choices[field];
        if (known) for (const option of options) if (!known.includes(option)) known.push(option);
      }
    }
  };

  const save = () => {
    if (!dataFile) return;
    fs.mkdirSync(path.dirname(dataFile), { recursive: true });
    const temporary = `${dataFile}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify({ version: 1, baseId, tables }, null, 2)}\n`);
    fs.renameSync(temporary, dataFile);
  };

  load();

  /** @param {string} name */
  const tableState = (name) => {
    const state = tables[name];
    const schema = TABLE_SCHEMAS[name];
    if (!state || !schema) {
      throw new ApiError(404, 'TABLE_NOT_FOUND', `Could not find table ${name} in application ${baseId}`);
    }
    return { state, schema };
  };

  /**
   * @param {string} tableName
   * @param {unknown} fieldsInput
   * @param {boolean} typecast
   * @param {Record<string, CellValue>} [existing]
   */
  const buildFields = (tableName, fieldsInput, typecast, existing = {}) => {
    const { state, schema } = tableState(tableName);
    if (typeof fieldsInput !== 'object' || fieldsInput === null || Array.isArray(fieldsInput)) {
      throw new ApiError(
        422,
        'INVALID_REQUEST_MISSING_FIELDS',
        'Could not find field "fields" in the request body',
      );
    }
    const fields = { ...existing };
    // Validate against a copy of the choices so a rejected write adds no options.
    const choices = Object.fromEntries(Object.entries(state.choices).map(([k, v]) => [k, [...v]]));
    for (const [name, value] of Object.entries(fieldsInput)) {
      const fieldSchema = schema[name];
      if (!fieldSchema) throw new ApiError(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
      const cell = normaliseCell(name, fieldSchema, choices[name] ?? [], value, typecast);
      if (cell === undefined) delete fields[name];
      else fields[name] = cell;
    }
    return { fields, commit: () => Object.assign(state.choices, choices) };
  };

  /** @param {StoredRecord} record @param {string[] | undefined} only */
  const present = (record, only) => ({
    id: record.id,
    createdTime: record.createdTime,
    fields: only
      ? Object.fromEntries(Object.entries(record.fields).filter(([k]) => only.includes(k)))
      : record.fields,
  });

  /**
   * @param {string} tableName
   * @param {Record<string, unknown>} params
   */
  const listRecords = (tableName, params) => {
    const { state, schema } = tableState(tableName);
    const readInt = (/** @type {string} */ key) => {
      const raw = params[key];
      if (raw === undefined || raw === '') return undefined;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0) {
        throw new ApiError(
          422,
          'INVALID_REQUEST_UNKNOWN',
          `Invalid request: parameter validation failed. Check your request data.`,
        );
      }
      return n;
    };
    let matching = state.records;
    const formula = params.filterByFormula;
    if (typeof formula === 'string' && formula.trim() !== '') {
      matching = matching.filter(compileFormula(formula, schema));
    }
    const sort = Array.isArray(params.sort)
      ? /** @type {{ field?: string, direction?: string }[]} */ (params.sort)
      : [];
    if (sort.length > 0) {
      matching = [...matching].sort((a, b) => {
        for (const { field = '', direction = 'asc' } of sort) {
          const x = String(a.fields[field] ?? '');
          const y = String(b.fields[field] ?? '');
          if (x !== y) return (x < y ? -1 : 1) * (direction === 'desc' ? -1 : 1);
        }
        return 0;
      });
    }
    const maxRecords = readInt('maxRecords');
    if (maxRecords !== undefined && maxRecords > 0) matching = matching.slice(0, maxRecords);
    const pageSize = Math.min(readInt('pageSize') ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE) || MAX_PAGE_SIZE;
    let start = 0;
    if (typeof params.offset === 'string' && params.offset !== '') {
      const match = /^itr(\d+)\//.exec(params.offset);
      if (!match) throw new ApiError(422, 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE', 'Invalid offset');
      start = Number(match[1]);
    }
    const page = matching.slice(start, start + pageSize);
    const fields = Array.isArray(params.fields) ? params.fields.map(String) : undefined;
    /** @type {{ records: unknown[], offset?: string }} */
    const body = { records: page.map((record) => present(record, fields)) };
    const next = start + pageSize;
    const last = page[page.length - 1];
    if (next < matching.length && last) body.offset = `itr${next}/${last.id}`;
    return body;
  };

  /** @param {string} tableName @param {unknown} body */
  const createRecords = (tableName, body) => {
    const { state } = tableState(tableName);
    const request = /** @type {{ fields?: unknown, records?: unknown, typecast?: unknown }} */ (body ?? {});
    const typecast = request.typecast === true;
    const many = Array.isArray(request.records);
    const inputs = many
      ? /** @type {{ fields?: unknown }[]} */ (request.records)
      : [{ fields: request.fields }];
    if (inputs.length === 0 || inputs.length > MAX_RECORDS_PER_WRITE) {
      throw new ApiError(
        422,
        'INVALID_RECORDS',
        `You must provide an array of up to ${MAX_RECORDS_PER_WRITE} records`,
      );
    }
    const built = inputs.map((input) => buildFields(tableName, input?.fields ?? {}, typecast));
    const createdTime = new Date().toISOString();
    const created = built.map(({ fields, commit }) => {
      commit();
      /** @type {StoredRecord} */
      const record = { id: newRecordId(), createdTime, fields };
      state.records.push(record);
      return record;
    });
    save();
    return many
      ? { records: created.map((r) => present(r, undefined)) }
      : present(/** @type {StoredRecord} */ (created[0]), undefined);
  };

  /**
   * @param {string} tableName
   * @param {string | undefined} recordId
   * @param {unknown} body
   * @param {boolean} destructive
   */
  const updateRecords = (tableName, recordId, body, destructive) => {
    const { state } = tableState(tableName);
    const request = /** @type {{ fields?: unknown, records?: unknown, typecast?: unknown }} */ (body ?? {});
    const typecast = request.typecast === true;
    const inputs = recordId
      ? [{ id: recordId, fields: request.fields }]
      : /** @type {{ id?: unknown, fields?: unknown }[]} */ (
          Array.isArray(request.records) ? request.records : []
        );
    if (inputs.length === 0 || inputs.length > MAX_RECORDS_PER_WRITE) {
      throw new ApiError(
        422,
        'INVALID_RECORDS',
        `You must provide an array of up to ${MAX_RECORDS_PER_WRITE} records`,
      );
    }
    const planned = inputs.map((input) => {
      const record = state.records.find((candidate) => candidate.id === input?.id);
      if (!record) throw new ApiError(404, 'NOT_FOUND', 'Could not find what you are looking for');
      return {
        record,
        ...buildFields(tableName, input.fields ?? {}, typecast, destructive ? {} : record.fields),
      };
    });
    for (const { record, fields, commit } of planned) {
      commit();
      record.fields = fields;
    }
    save();
    const records = planned.map(({ record }) => present(record, undefined));
    return recordId ? records[0] : { records };
  };

  /** @param {string} tableName @param {string[]} ids */
  const deleteRecords = (tableName, ids) => {
    const { state } = tableState(tableName);
    for (const id of ids) {
      if (!state.records.some((record) => record.id === id)) {
        throw new ApiError(404, 'NOT_FOUND', 'Could not find what you are looking for');
      }
    }
    state.records = state.records.filter((record) => !ids.includes(record.id));
    save();
    return ids.map((id) => ({ id, deleted: true }));
  };

  /** @param {http.IncomingMessage} req @returns {Promise<unknown>} */
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      /** @type {Buffer[]} */
      const chunks = [];
      let size = 0;
      req.on('data', (/** @type {Buffer} */ chunk) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      req.on('error', reject);
      req.on('end', () => {
        if (size > MAX_BODY_BYTES)
          return reject(new ApiError(413, 'REQUEST_TOO_LARGE', 'Request body is too large'));
        const text = Buffer.concat(chunks).toString('utf8');
        if (text.trim() === '') return resolve(undefined);
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(
            new ApiError(
              422,
              'INVALID_REQUEST_UNKNOWN',
              'Invalid request: the request body is not valid JSON.',
            ),
          );
        }
      });
    });

  /**
   * GET query → list parameters, including airtable.js's bracket encoding (fields[], sort[0][field]).
   * @param {URLSearchParams} query
   */
  const queryToParams = (query) => {
    /** @type {Record<string, unknown>} */
    const params = {};
    /** @type {string[]} */
    const fields = [];
    /** @type {{ field?: string, direction?: string }[]} */
    const sort = [];
    for (const [key, value] of query) {
      const sortMatch = /^sort\[(\d+)\]\[(field|direction)\]$/.exec(key);
      if (key === 'fields[]' || key === 'fields') fields.push(value);
      else if (sortMatch) {
        const entry = (sort[Number(sortMatch[1])] ??= {});
        entry[/** @type {'field' | 'direction'} */ (sortMatch[2])] = value;
      } else params[key] = value;
    }
    if (fields.length > 0) params.fields = fields;
    if (sort.length > 0) params.sort = sort.filter(Boolean);
    if (params.pageSize === undefined && params.limit !== undefined) params.pageSize = params.limit;
    return params;
  };

  /**
   * @param {http.ServerResponse} res
   * @param {number} status
   * @param {unknown} body
   */
  const sendJson = (res, status, body) => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };

  /** @param {http.ServerResponse} res @param {number} status @param {string} [type] @param {string} [message] */
  const sendError = (res, status, type, message) => {
    const [defaultType, defaultMessage] = defaultErrorFor(status);
    if (status === 429) {
      // Airtable's 429 body uses the older `errors` array shape.
      sendJson(res, status, { errors: [{ error: type ?? defaultType, message: message ?? defaultMessage }] });
    } else {
      sendJson(res, status, { error: { type: type ?? defaultType, message: message ?? defaultMessage } });
    }
  };

  /** @param {string} method @param {string | undefined} table */
  const takeFault = (method, table) => {
    const index = faults.findIndex(
      (fault) =>
        (!fault.method || fault.method.toUpperCase() === method) && (!fault.table || fault.table === table),
    );
    const fault = faults[index];
    if (!fault) return undefined;
    const remaining = (fault.count ?? 1) - 1;
    if (remaining <= 0) faults.splice(index, 1);
    else fault.count = remaining;
    return fault;
  };

  /** True when this request breaches the per-base rate limit (rejected requests are not counted). */
  const rateLimited = () => {
    const limit = config.rateLimitPerSecond;
    if (!limit || limit <= 0) return false;
    const now = Date.now();
    if (now < penaltyUntil) return true;
    recentHits = recentHits.filter((at) => now - at < 1000);
    if (recentHits.length >= limit) {
      penaltyUntil = now + config.rateLimitPenaltyMs;
      return true;
    }
    recentHits.push(now);
    return false;
  };

  /** @param {number} ms */
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   * @param {URL} url
   */
  const handleApi = async (req, res, url) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const [version, requestBase, tableName, recordId, extra] = segments;
    /** @type {LoggedRequest} */
    const entry = { at: new Date().toISOString(), method, path: url.pathname, status: 0 };
    if (tableName) entry.table = tableName;
    requestLog.push(entry);
    if (requestLog.length > REQUEST_LOG_LIMIT) requestLog = requestLog.slice(-REQUEST_LOG_LIMIT);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });

    // Read the body first so a delayed write still lands after the client has given up.
    const body = method === 'GET' || method === 'DELETE' ? undefined : await readBody(req);
    const fault = takeFault(method, tableName);
    if (fault) {
      const kind = fault.kind ?? (fault.status ? 'status' : 'hang');
      if (kind === 'hang') {
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
      if (kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (kind === 'invalid-json') {
        // Like a proxy's error page. (A 200 with such a body trips airtable.js: it then throws
        // an unhandled TypeError and never settles, which only the storage layer's bound ends.)
        res.writeHead(fault.status ?? 502, { 'content-type': 'text/html' });
        res.end('<html>Bad gateway</html>');
        return;
      }
      if (kind === 'delay') await wait(fault.delayMs ?? 1000);
      else return sendError(res, fault.status ?? 500, fault.type, fault.message);
    }
    if (config.latencyMs > 0) await wait(config.latencyMs);

    const authorization = req.headers.authorization ?? '';
    if (authorization !== `Bearer ${apiKey}`) return sendError(res, 401);
    if (version !== 'v0' || !requestBase) return sendError(res, 404);
    if (requestBase !== baseId) return sendError(res, 403);
    if (!tableName) return sendError(res, 404);
    if (rateLimited()) return sendError(res, 429);

    if (method === 'GET' && !recordId)
      return sendJson(res, 200, listRecords(tableName, queryToParams(url.searchParams)));
    if (method === 'POST' && recordId === 'listRecords' && !extra) {
      const params = { ...queryToParams(url.searchParams), .../** @type {object} */ (body ?? {}) };
      return sendJson(res, 200, listRecords(tableName, params));
    }
    if (method === 'GET' && recordId && !extra) {
      const { state } = tableState(tableName);
      const record = state.records.find((candidate) => candidate.id === recordId);
      return record ? sendJson(res, 200, present(record, undefined)) : sendError(res, 404);
    }
    if (method === 'POST' && !recordId) return sendJson(res, 200, createRecords(tableName, body));
    if ((method === 'PATCH' || method === 'PUT') && !extra) {
      return sendJson(res, 200, updateRecords(tableName, recordId, body, method === 'PUT'));
    }
    if (method === 'DELETE' && !extra) {
      const ids = recordId ? [recordId] : url.searchParams.getAll('records[]');
      const deleted = deleteRecords(tableName, ids);
      return sendJson(res, 200, recordId ? deleted[0] : { records: deleted });
    }
    return sendError(res, 404);
  };

  const reset = () => {
    tables = emptyTables();
    faults = [];
    requestLog = [];
    recentHits = [];
    penaltyUntil = 0;
    config = { ...initialConfig };
    save();
  };

  /** @param {string} table @param {Record<string, unknown>} fields */
  const seed = (table, fields) => {
    const { state } = tableState(table);
    const built = buildFields(table, fields, true);
    built.commit();
    /** @type {StoredRecord} */
    const record = { id: newRecordId(), createdTime: new Date().toISOString(), fields: built.fields };
    state.records.push(record);
    save();
    return record;
  };

  /** @param {unknown} body @returns {Fault[]} */
  const faultsFrom = (body) => {
    const value = /** @type {{ faults?: unknown }} */ (body ?? {});
    const list = Array.isArray(body) ? body : Array.isArray(value.faults) ? value.faults : [body];
    return /** @type {Fault[]} */ (list.filter((item) => typeof item === 'object' && item !== null));
  };

  /** @param {Partial<EmulatorConfig>} patch */
  const setConfig = (patch) => {
    for (const key of /** @type {(keyof EmulatorConfig)[]} */ (Object.keys(initialConfig))) {
      const value = patch[key];
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) config[key] = value;
    }
    recentHits = [];
    penaltyUntil = 0;
    return { ...config };
  };

  const allRecords = () =>
    Object.fromEntries(Object.entries(tables).map(([name, state]) => [name, state.records]));

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   * @param {URL} url
   */
  const handleAdmin = async (req, res, url) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const route = url.pathname.slice(EMULATOR_ADMIN_PREFIX.length).replace(/\/+$/, '') || '/';
    const body = method === 'POST' ? await readBody(req) : undefined;
    const recordsMatch = /^\/records\/(.+)$/.exec(route);

    if (method === 'GET' && route === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(renderRecordsPage(allRecords(), baseId));
      return;
    }
    if (method === 'GET' && route === '/health') return sendJson(res, 200, { ok: true, baseId, config });
    if (method === 'GET' && route === '/records') return sendJson(res, 200, { tables: allRecords() });
    if (recordsMatch) {
      const table = decodeURIComponent(/** @type {string} */ (recordsMatch[1]));
      if (method === 'GET') return sendJson(res, 200, { records: tableState(table).state.records });
      if (method === 'POST') {
        const value = /** @type {{ fields?: Record<string, unknown> }} */ (body ?? {});
        return sendJson(res, 200, seed(table, value.fields ?? {}));
      }
    }
    if (method === 'POST' && route === '/reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (route === '/faults') {
      if (method === 'POST') faults.push(...faultsFrom(body));
      if (method === 'DELETE') faults = [];
      return sendJson(res, 200, { faults });
    }
    if (route === '/config') {
      if (method === 'POST') setConfig(/** @type {Partial<EmulatorConfig>} */ (body ?? {}));
      return sendJson(res, 200, config);
    }
    if (method === 'GET' && route === '/requests') return sendJson(res, 200, { requests: requestLog });
    return sendJson(res, 404, { error: { type: 'NOT_FOUND', message: ADMIN_HELP } });
  };

  const server = http.createServer((req, res) => {
    const origin = req.headers.origin;
    res.setHeader('access-control-allow-origin', origin ?? '*');
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-allow-methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
    res.setHeader('access-control-allow-headers', CORS_ALLOWED_HEADERS);
    res.setHeader('access-control-max-age', '600');
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`);
    const admin =
      url.pathname === EMULATOR_ADMIN_PREFIX || url.pathname.startsWith(`${EMULATOR_ADMIN_PREFIX}/`);
    (admin ? handleAdmin(req, res, url) : handleApi(req, res, url)).catch((/** @type {unknown} */ error) => {
      if (error instanceof ApiError) return sendError(res, error.status, error.type, error.message);
      log(`airtable-emulator: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendError(res, 500);
    });
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const url = `http://${host}:${address.port}`;

  return {
    url,
    port: address.port,
    apiKey,
    baseId,
    close: () =>
      new Promise((resolve) => {
        for (const res of hung) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    reset,
    records: (table) => tableState(table).state.records.map((record) => structuredClone(record)),
    seed,
    addFaults: (...added) => {
      faults.push(...added);
    },
    setConfig,
    requests: () => [...requestLog],
  };
}

const ADMIN_HELP = [
  'Admin API:',
  'GET /__emulator/ (HTML list of stored records)',
  'GET /__emulator/health',
  'GET /__emulator/records → { tables: { [table]: Record[] } }',
  'GET /__emulator/records/:table → { records: Record[] }',
  'POST /__emulator/records/:table { fields } → Record',
  'POST /__emulator/reset → { ok: true }',
  'GET|POST|DELETE /__emulator/faults (POST Fault | Fault[] | { faults }) → { faults }',
  'GET|POST /__emulator/config (POST { rateLimitPerSecond?, rateLimitPenaltyMs?, latencyMs? }) → config',
  'GET /__emulator/requests → { requests: { at, method, path, table?, status }[] }',
].join('\n');

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A plain page listing what has been stored, for `npm run dev` users.
 * @param {Record<string, StoredRecord[]>} tables
 * @param {string} baseId
 */
function renderRecordsPage(tables, baseId) {
  const sections = Object.entries(tables).map(([name, records]) => {
    const columns = Object.keys(TABLE_SCHEMAS[name] ?? {});
    const rows = [...records]
      .reverse()
      .map(
        (record) =>
          `<tr>${columns
            .map((column) => {
              const value = record.fields[column];
              return `<td>${escapeHtml(Array.isArray(value) ? value.join(', ') : (value ?? ''))}</td>`;
            })
            .join('')}</tr>`,
      )
      .join('');
    return `<h2>${escapeHtml(name)} (${records.length})</h2><table><thead><tr>${columns
      .map((column) => `<th scope="col">${escapeHtml(column)}</th>`)
      .join('')}</tr></thead><tbody>${rows}</tbody></table>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Airtable emulator: ${escapeHtml(baseId)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;margin-bottom:2rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}</style>
</head><body><h1>Local Airtable emulator: base ${escapeHtml(baseId)}</h1>${sections.join('')}</body></html>`;
}

/**
 * @param {string[]} argv
 * @returns {EmulatorOptions}
 */
export function parseEmulatorArgs(argv) {
  /** @type {EmulatorOptions} */
  const options = { port: EMULATOR_DEFAULT_PORT, dataFile: EMULATOR_DEFAULT_DATA_FILE };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = argv[i + 1];
    const take = () => {
      i += 1;
      if (value === undefined) throw new Error(`${flag} needs a value`);
      return value;
    };
    if (flag === '--port') options.port = Number(take());
    else if (flag === '--host') options.host = take();
    else if (flag === '--data') options.dataFile = take();
    else if (flag === '--no-data') delete options.dataFile;
    else if (flag === '--rate-limit') options.rateLimitPerSecond = Number(take());
    else if (flag === '--rate-limit-penalty') options.rateLimitPenaltyMs = Number(take());
    else if (flag === '--latency') options.latencyMs = Number(take());
    else if (flag === '--api-key') options.apiKey = take();
    else if (flag === '--base') options.baseId = take();
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(
        [
          'Usage: node scripts/airtable-emulator.mjs [--port 8787] [--host 127.0.0.1] [--data .data/airtable.json | --no-data]',
          '       [--rate-limit 5] [--rate-limit-penalty 0] [--latency 0] [--api-key KEY] [--base BASE_ID]',
          ADMIN_HELP,
          '',
        ].join('\n'),
      );
      process.exit(0);
    } else throw new Error(`Unknown option ${flag} (try --help)`);
  }
  return options;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseEmulatorArgs(process.argv.slice(2));
  const emulator = await startEmulator({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(
    `Airtable emulator on ${emulator.url} (key ${emulator.apiKey}, base ${emulator.baseId}` +
      `${options.dataFile ? `, data ${options.dataFile}` : ''}); records: ${emulator.url}${EMULATOR_ADMIN_PREFIX}/\n`,
  );
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
