// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { compileFormula, evaluate, parseFormula, tokenize } from '#scripts/airtable-emulator/formula.ts';

const run = (formula: string, fields: Record<string, string | string[]> = {}) =>
  evaluate(parseFormula(formula), fields);

describe('formula language', () => {
  it('tokenizes strings with backslash escapes, field references, numbers and operators', () => {
    expect(tokenize(`{Email} = 'it\\'s' & "a\\\\b" != 1.5`)).toEqual([
      { t: 'field', v: 'Email' },
      { t: 'op', v: '=' },
      { t: 'str', v: "it's" },
      { t: 'op', v: '&' },
      { t: 'str', v: 'a\\b' },
      { t: 'op', v: '!=' },
      { t: 'num', v: 1.5 },
    ]);
  });

  it('binds & tighter than = and !=', () => {
    expect(run(`'a' & 'b' = 'ab'`)).toBe(true);
    expect(run(`('a' & 'b') != 'ab'`)).toBe(false);
    expect(run(`1 = '1.0'`)).toBe(true);
  });

  it('SWITCH gives the result of the first pattern equal to its expression, else its default or blank', () => {
    expect(run(`SWITCH('b', 'a', 1, 'b', 2, 'b', 3, 0)`)).toBe(2);
    expect(run(`SWITCH('c', 'a', 1, 0)`)).toBe(0);
    expect(run(`SWITCH('c', 'a', 1)`)).toBeNull();
    expect(run(`SWITCH(LOWER({Email}), 'x@y.co', 'yes', 'no')`, { Email: 'X@Y.co' })).toBe('yes');
    // Mixed results or a computed pattern: the evaluation as it is.
    const mixed = compileFormula(`SWITCH({Email}, 'a', 1, 'b', 0, 1)`, ['Email']);
    expect(['a', 'b', 'c'].map((Email) => mixed({ fields: { Email } }))).toEqual([true, false, true]);
  });

  it('evaluates the functions the lookup uses, and IF', () => {
    expect(run(`LOWER(TRIM({Email})) = 'a@b.co'`, { Email: '  A@B.co ' })).toBe(true);
    expect(run(`IF(TRUE(), 'yes', 'no')`)).toBe('yes');
    expect(run(`IF(FALSE(), 'yes')`)).toBeNull();
    expect(run(`AND()`)).toBe(false);
    expect(run('{Interests}', { Interests: ['x', 'y'] })).toBe('x, y');
  });

  it('answers 422 INVALID_FILTER_BY_FORMULA for syntax errors', () => {
    for (const formula of [`'open`, '{Email', 'LOWER(', `'a' =`, '1 2', '@', 'WHAT', '1 + 2', 'NOPE()']) {
      expect(() => parseFormula(formula), formula).toThrow(
        expect.objectContaining({ status: 422, type: 'INVALID_FILTER_BY_FORMULA' }),
      );
    }
  });

  it('refuses unknown functions and field names before evaluating anything', () => {
    for (const formula of ['NOPE()', `SEARCH('b', 'ABC')`, 'TODAY()'])
      expect(() => compileFormula(formula, []), formula).toThrow(expect.objectContaining({ status: 422 }));
    expect(() => compileFormula(`{Mail} = 'x'`, ['Email'])).toThrow('Unknown field names: Mail');
    const matches = compileFormula(`{Email} = 'x'`, ['Email']);
    expect(matches({ fields: { Email: 'x' } })).toBe(true);
    expect(matches({ fields: {} })).toBe(false);
  });

  it('an OR of one expression against many texts (the email lookups) matches as the evaluation does', () => {
    const emails = Array.from({ length: 300 }, (_, i) => `p${i}@x.co`);
    const formula = `OR(${emails.map((email) => `LOWER(TRIM({Email})) = '${email}'`).join(', ')})`;
    const matches = compileFormula(formula, ['Email']);
    const tree = parseFormula(formula);
    const records: Record<string, string | string[]>[] = [
      { Email: ' P7@X.co ' },
      { Email: 'p299@x.co' },
      { Email: 'p300@x.co' },
      { Email: ['p1@x.co'] },
      { Email: ['p1@x.co', 'p2@x.co'] },
      {},
    ];
    const found = records.map((fields) => matches({ fields }));
    expect(found).toEqual([true, true, false, true, false, false]);
    expect(found).toEqual(records.map((fields) => evaluate(tree, fields) === true));
    // A number is compared as a number, not as its text.
    expect(compileFormula(`OR(7 = '7.0', 7 = '8')`, [])({ fields: {} })).toBe(true);
    // The same lookup as a SWITCH, the server's form of it: the same records.
    const cases = emails.map((email) => `'${email}', 1, `).join('');
    const switched = `SWITCH(LOWER(TRIM({Email})), ${cases}0)`;
    const bySwitch = compileFormula(switched, ['Email']);
    expect(records.map((fields) => bySwitch({ fields }))).toEqual(found);
    const switchTree = parseFormula(switched);
    expect(records.map((fields) => Boolean(evaluate(switchTree, fields)))).toEqual(found);
    // Not all one expression: the evaluation as it is.
    const mixed = compileFormula(`OR({Email} = 'a', {Name} = 'b')`, ['Email', 'Name']);
    expect(mixed({ fields: { Name: 'b' } })).toBe(true);
  });
});

describe('date functions (Airtable’s documented behaviour)', () => {
  const at = (formula: string, fields: Record<string, string> = {}, createdTime?: string) =>
    evaluate(parseFormula(formula), fields, {
      createdTime,
      now: () => Date.parse('2026-03-31T12:00:00.000Z'),
    });

  it('NOW reads the clock; CREATED_TIME the record’s creation time', () => {
    expect(at('NOW()')).toBe('2026-03-31T12:00:00.000Z');
    expect(at('CREATED_TIME()', {}, '2020-01-02T03:04:05.000Z')).toBe('2020-01-02T03:04:05.000Z');
  });

  it('IS_BEFORE and IS_AFTER compare two dates; a blank date gives a blank answer', () => {
    expect(at("IS_BEFORE('2024-01-01', '2024-01-02')")).toBe(true);
    expect(at("IS_AFTER('2024-01-01', '2024-01-02')")).toBe(false);
    expect(at('IS_BEFORE({Last Updated}, NOW())', { 'Last Updated': '2026-03-30T00:00:00.000Z' })).toBe(true);
    expect(at('IS_BEFORE({Last Updated}, NOW())')).toBeNull();
    expect(at("IS_BEFORE(BLANK(), '2024-01-02')")).toBeNull();
  });

  it('the retention formula picks Last Updated, else Created At, else the creation time', () => {
    const expired = (fields: Record<string, string>, createdTime: string) =>
      at(
        "IS_BEFORE(IF({Last Updated}, {Last Updated}, IF({Created At}, {Created At}, CREATED_TIME())), DATETIME_PARSE('2024-03-31T12:00:00.000Z'))",
        fields,
        createdTime,
      );
    const recent = '2026-01-01T00:00:00.000Z';
    const old = '2023-01-01T00:00:00.000Z';
    expect(expired({ 'Last Updated': old, 'Created At': recent }, recent)).toBe(true);
    expect(expired({ 'Last Updated': recent, 'Created At': old }, old)).toBe(false);
    expect(expired({ 'Created At': old }, recent)).toBe(true);
    expect(expired({}, old)).toBe(true);
    expect(expired({}, recent)).toBe(false);
  });
});
