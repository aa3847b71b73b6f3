// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { compileFormula, evaluate, parseFormula, tokenize } from '../../../scripts/airtable-emulator/formula';

const run = (formula: string, fields: Record<string, string | string[]> = {}) =>
  evaluate(parseFormula(formula), fields);

describe('formula language', () => {
  it('tokenizes strings with backslash escapes, field references, numbers and operators', () => {
    expect(tokenize(`{Email} = 'it\\'s' & "a\\\\b" >= 1.5`)).toEqual([
      { t: 'field', v: 'Email' },
      { t: 'op', v: '=' },
      { t: 'str', v: "it's" },
      { t: 'op', v: '&' },
      { t: 'str', v: 'a\\b' },
      { t: 'op', v: '>=' },
      { t: 'num', v: 1.5 },
    ]);
  });

  it('binds & tighter than = and * tighter than +', () => {
    expect(run(`'a' & 'b' = 'ab'`)).toBe(true);
    expect(run('1 + 2 * 3')).toBe(7);
    expect(run('-(1 + 2)')).toBe(-3);
  });

  it('evaluates the functions the lookup uses, and IF only on its taken branch', () => {
    expect(run(`LOWER(TRIM({Email})) = 'a@b.co'`, { Email: '  A@B.co ' })).toBe(true);
    expect(run(`IF(TRUE(), 'yes', NOPE())`)).toBe('yes');
    expect(run(`AND()`)).toBe(false);
    expect(run(`SEARCH('b', 'ABC')`)).toBe(2);
    expect(run('{Interests}', { Interests: ['x', 'y'] })).toBe('x, y');
  });

  it('answers 422 INVALID_FILTER_BY_FORMULA for syntax errors', () => {
    for (const formula of [`'open`, '{Email', 'LOWER(', '1 +', '1 2', '@', 'WHAT']) {
      expect(() => parseFormula(formula), formula).toThrow(
        expect.objectContaining({ status: 422, type: 'INVALID_FILTER_BY_FORMULA' }),
      );
    }
  });

  it('refuses unknown functions and field names before evaluating anything', () => {
    expect(() => compileFormula('NOPE()', [])).toThrow(expect.objectContaining({ status: 422 }));
    expect(() => compileFormula(`{Mail} = 'x'`, ['Email'])).toThrow('Unknown field names: Mail');
    const matches = compileFormula(`{Email} = 'x'`, ['Email']);
    expect(matches({ fields: { Email: 'x' } })).toBe(true);
    expect(matches({ fields: {} })).toBe(false);
  });
});
