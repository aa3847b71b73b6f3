/** The emulated base: its tables, the REST API's record operations, and a JSON file written atomically. */
import fs from 'node:fs';
import path from 'node:path';
import {
  buildField,
  buildTable,
  describeTable,
  newId,
  normaliseCell,
  siteBaseSchema,
  type FieldModel,
  type StoredRecord,
  type TableInput,
  type TableState,
} from './base-schema.ts';
import { compileFormula } from './formula.ts';
import { ApiError, apiError, isObject } from './http.ts';

const MAX_RECORDS_PER_WRITE = 10;
const MAX_PAGE_SIZE = 100;
const DATA_FILE_VERSION = 2;

/** Where the base's schema starts: the site's (default), an empty base, or given tables. */
export type InitialSchema = 'site' | 'empty' | readonly TableInput[];

interface StoreOptions {
  baseId: string;
  /** JSON file the base is kept in; none keeps it in memory only. */
  dataFile?: string;
  schema?: InitialSchema;
}

export type ListParams = Record<string, unknown>;

/** Of the types Airtable merges an upsert on (text, number, select, date), those the emulator creates. */
const MERGEABLE_TYPES = new Set(['singleLineText', 'multilineText', 'singleSelect', 'dateTime']);

function readInteger(params: ListParams, key: string): number | undefined {
  const raw = params[key];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw apiError(422);
  return n;
}

/** The emulated base. Every method that changes it saves the data file. */
export class BaseStore {
  readonly baseId: string;
  private readonly dataFile: string | undefined;
  private readonly initialSchema: InitialSchema;
  private tables: TableState[] = [];

  constructor(options: StoreOptions) {
    this.baseId = options.baseId;
    this.dataFile = options.dataFile ? path.resolve(options.dataFile) : undefined;
    this.initialSchema = options.schema ?? 'site';
    this.load();
  }

  private freshTables(): TableState[] {
    const tables: TableState[] = [];
    if (this.initialSchema === 'empty') return tables;
    for (const input of this.initialSchema === 'site' ? siteBaseSchema() : this.initialSchema)
      tables.push(buildTable(input, tables));
    return tables;
  }

  private load(): void {
    this.tables = this.freshTables();
    if (!this.dataFile || !fs.existsSync(this.dataFile)) return;
    const saved = JSON.parse(fs.readFileSync(this.dataFile, 'utf8')) as {
      version?: number;
      tables: TableState[];
    };
    if (saved.version !== DATA_FILE_VERSION)
      throw new Error(`${this.dataFile} is from an older emulator: delete it, or pass another data file`);
    // A base started from the site's schema gains what the site has added since it was saved,
    // so a developer's old data file keeps working after a new field lands.
    if (this.initialSchema === 'site') {
      for (const fresh of this.tables) {
        const table = saved.tables.find((candidate) => candidate.name === fresh.name);
        if (!table) saved.tables.push(fresh);
        else
          table.fields.push(
            ...fresh.fields.filter((field) => !table.fields.some((f) => f.name === field.name)),
          );
      }
    }
    this.tables = saved.tables;
  }

  private save(): void {
    if (!this.dataFile) return;
    fs.mkdirSync(path.dirname(this.dataFile), { recursive: true, mode: 0o700 });
    const temporary = `${this.dataFile}.${process.pid}.tmp`;
    const content = { version: DATA_FILE_VERSION, baseId: this.baseId, tables: this.tables };
    // Visitors' data: this user's alone (the rename keeps the temporary file's mode).
    fs.writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, this.dataFile);
  }

  reset(): void {
    this.tables = this.freshTables();
    this.save();
  }

  /** A table by name or id; else 404, or the Metadata API's 403 (`hidden`: it never says which exists). */
  table(nameOrId: string, hidden = false): TableState {
    const table = this.tables.find((candidate) => candidate.id === nameOrId || candidate.name === nameOrId);
    if (table) return table;
    if (hidden) throw apiError(403);
    throw apiError(404, 'TABLE_NOT_FOUND', `Could not find table ${nameOrId} in application ${this.baseId}`);
  }

  describeTables(): Omit<TableState, 'records'>[] {
    return this.tables.map(describeTable);
  }

  createTable(input: unknown): Omit<TableState, 'records'> {
    const table = buildTable(input, this.tables);
    this.tables.push(table);
    this.save();
    return describeTable(table);
  }

  createField(tableNameOrId: string, input: unknown): FieldModel {
    const table = this.table(tableNameOrId, true);
    const field = buildField(input, table.fields);
    table.fields.push(field);
    this.save();
    return structuredClone(field);
  }

  /** Records of every table, by table name (copies, as is every record this class returns). */
  allRecords(): Record<string, StoredRecord[]> {
    return Object.fromEntries(this.tables.map((table) => [table.name, structuredClone(table.records)]));
  }

  records(tableName: string): StoredRecord[] {
    return structuredClone(this.table(tableName).records);
  }

  columns(): Record<string, string[]> {
    return Object.fromEntries(
      this.tables.map((table) => [table.name, table.fields.map((field) => field.name)]),
    );
  }

  /**
   * One write of 1 to 10 records, all or nothing: the cells are checked against one copy of the select
   * options (every option added kept, as in Airtable), which replaces them once the whole write is valid.
   */
  private write(
    table: TableState,
    writes: readonly { record?: StoredRecord; cells: unknown }[],
    typecast: boolean,
    createdTime = new Date().toISOString(),
  ): StoredRecord[] {
    if (writes.length === 0 || writes.length > MAX_RECORDS_PER_WRITE)
      throw new ApiError(
        422,
        'INVALID_RECORDS',
        `You must provide an array of up to ${MAX_RECORDS_PER_WRITE} records`,
      );
    const choices = new Map(table.fields.map((field) => [field, [...(field.options?.choices ?? [])]]));
    const built = writes.map(({ record, cells }) => {
      if (!isObject(cells))
        throw new ApiError(
          422,
          'INVALID_REQUEST_MISSING_FIELDS',
          'Could not find field "fields" in the request body',
        );
      const fields = { ...record?.fields };
      for (const [name, value] of Object.entries(cells)) {
        const field = table.fields.find((candidate) => candidate.name === name);
        if (!field) throw new ApiError(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
        const cell = normaliseCell(field, choices.get(field) ?? [], value, typecast);
        if (cell === undefined) delete fields[name];
        else fields[name] = cell;
      }
      return fields;
    });
    for (const [field, list] of choices) if (field.options?.choices) field.options.choices = list;
    const records = writes.map(({ record }, i) => {
      const fields = built[i] ?? {};
      if (record) return Object.assign(record, { fields });
      const created: StoredRecord = { id: newId('rec'), createdTime, fields };
      table.records.push(created);
      return created;
    });
    this.save();
    return records;
  }

  /** Adds one record (admin API, tests), validated with typecast, created at `createdTime` or now. */
  seed(tableName: string, input: Record<string, unknown>, createdTime?: string): StoredRecord {
    const created = createdTime === undefined ? new Date() : new Date(createdTime);
    if (Number.isNaN(created.getTime()))
      throw new ApiError(422, 'INVALID_REQUEST_UNKNOWN', 'createdTime is not a date');
    const [record] = this.write(this.table(tableName), [{ cells: input }], true, created.toISOString());
    return structuredClone(record as StoredRecord);
  }

  /** One page of records (GET …/{table}, POST …/listRecords). */
  listRecords(tableName: string, params: ListParams): { records: StoredRecord[]; offset?: string } {
    const table = this.table(tableName);
    let matching = table.records;
    const formula = params.filterByFormula;
    const names = table.fields.map((field) => field.name);
    if (typeof formula === 'string' && formula.trim() !== '')
      matching = matching.filter(compileFormula(formula, names));
    const maxRecords = readInteger(params, 'maxRecords');
    if (maxRecords) matching = matching.slice(0, maxRecords);
    const pageSize = Math.min(readInteger(params, 'pageSize') || MAX_PAGE_SIZE, MAX_PAGE_SIZE);
    let start = 0;
    if (typeof params.offset === 'string' && params.offset !== '') {
      const match = /^itr(\d+)\//.exec(params.offset);
      if (!match) throw new ApiError(422, 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE', 'Invalid offset');
      start = Number(match[1]);
    }
    const page = matching.slice(start, start + pageSize);
    const only = Array.isArray(params.fields) ? params.fields.map(String) : undefined;
    const pick = (fields: StoredRecord['fields']) =>
      Object.fromEntries(Object.entries(fields).filter(([name]) => only?.includes(name)));
    const records = only ? page.map((record) => ({ ...record, fields: pick(record.fields) })) : page;
    const last = page[page.length - 1];
    const more = start + pageSize < matching.length && last;
    return more ? { records, offset: `itr${start + pageSize}/${last.id}` } : { records };
  }

  /**
   * POST creates one record ({ fields }) or up to ten ({ records }); PATCH merges into one by id or
   * up to ten. A PATCH with `performUpsert: { fieldsToMergeOn }` updates the one record whose merge
   * fields match, or creates one; as Airtable documents: merge fields are text, number, select or
   * date (not email), two matches are refused, and the answer names createdRecords and updatedRecords.
   */
  writeRecords(tableName: string, method: 'POST' | 'PATCH', recordId: string | undefined, body: unknown) {
    const table = this.table(tableName);
    const request = isObject(body) ? body : {};
    const upsert =
      method === 'PATCH' && !recordId && isObject(request.performUpsert) ? request.performUpsert : undefined;
    const mergeOn = upsert && Array.isArray(upsert.fieldsToMergeOn) ? upsert.fieldsToMergeOn.map(String) : [];
    const mergeable = (name: string) =>
      MERGEABLE_TYPES.has(table.fields.find((field) => field.name === name)?.type ?? '');
    if (upsert && (mergeOn.length === 0 || mergeOn.length > 3 || !mergeOn.every(mergeable)))
      throw new ApiError(
        422,
        'INVALID_MERGE_FIELD',
        'fieldsToMergeOn must name 1 to 3 text, number, select or date fields',
      );
    const many = !recordId && Array.isArray(request.records);
    const inputs = many ? (request.records as unknown[]) : [{ id: recordId, fields: request.fields }];
    const writes = inputs.map((input) => {
      const { id, fields: cells = {} } = isObject(input) ? input : {};
      if (method === 'POST') return { cells };
      const matches = table.records.filter((record) =>
        upsert
          ? isObject(cells) && mergeOn.every((name) => name in cells && record.fields[name] === cells[name])
          : record.id === id,
      );
      if (matches.length > 1)
        throw new ApiError(422, 'INVALID_MERGE_FIELD', 'More than one record matches the merge fields');
      if (!upsert && !matches[0]) throw apiError(404);
      return { cells, record: matches[0] };
    });
    const records = this.write(table, writes, request.typecast === true);
    if (!many) return records[0] as StoredRecord;
    if (!upsert) return { records };
    const ids = (updated: boolean) =>
      records.filter((_, i) => Boolean(writes[i]?.record) === updated).map((record) => record.id);
    return { records, createdRecords: ids(false), updatedRecords: ids(true) };
  }

  /** Deletes 1 to 10 records by id; 404, and nothing deleted, if any is unknown. */
  deleteRecords(tableName: string, ids: readonly string[]): { id: string; deleted: true }[] {
    const table = this.table(tableName);
    if (ids.length === 0 || ids.length > MAX_RECORDS_PER_WRITE)
      throw new ApiError(422, 'INVALID_RECORDS', `Delete between 1 and ${MAX_RECORDS_PER_WRITE} records`);
    if (ids.some((id) => !table.records.some((record) => record.id === id))) throw apiError(404);
    table.records = table.records.filter((record) => !ids.includes(record.id));
    this.save();
    return ids.map((id) => ({ id, deleted: true }));
  }
}
