// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { normaliseCell, type ChoiceModel } from '#scripts/airtable-emulator/base-schema.ts';

const field = (type: string) => ({ name: 'F', type });
const choices = (): ChoiceModel[] => [{ id: 'sel1', name: 'A' }];

describe('normaliseCell', () => {
  it('treats null, undefined and empty text as an empty cell', () => {
    for (const value of [null, undefined, ''])
      expect(normaliseCell(field('singleLineText'), [], value, false)).toBeUndefined();
  });

  it('keeps text, and converts numbers to text only with typecast', () => {
    expect(normaliseCell(field('email'), [], 'a@b.co', false)).toBe('a@b.co');
    expect(() => normaliseCell(field('singleLineText'), [], 5, false)).toThrow(
      expect.objectContaining({ type: 'INVALID_VALUE_FOR_COLUMN' }),
    );
    expect(normaliseCell(field('singleLineText'), [], 5, true)).toBe('5');
  });

  it('refuses an unknown select option without typecast, and adds it with typecast', () => {
    const list = choices();
    expect(() => normaliseCell(field('multipleSelects'), list, ['A', 'B'], false)).toThrow(
      expect.objectContaining({ type: 'INVALID_MULTIPLE_CHOICE_OPTIONS' }),
    );
    expect(list.map((choice) => choice.name)).toEqual(['A']);
    expect(normaliseCell(field('multipleSelects'), list, ['A', 'B', 'A', ''], true)).toEqual(['A', 'B']);
    expect(list.map((choice) => choice.name)).toEqual(['A', 'B']);
    expect(normaliseCell(field('singleSelect'), list, 'B', false)).toBe('B');
  });

  it('stores date-times as ISO text and refuses what is not a date', () => {
    expect(normaliseCell(field('dateTime'), [], '2025-01-02T03:04:05+01:00', false)).toBe(
      '2025-01-02T02:04:05.000Z',
    );
    expect(() => normaliseCell(field('dateTime'), [], 'soon', false)).toThrow(
      expect.objectContaining({ status: 422 }),
    );
  });
});
