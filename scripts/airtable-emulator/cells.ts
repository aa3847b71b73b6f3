/**
 * One cell of a record write, checked against its field's type with Airtable's error types.
 * With typecast, unknown select options are added to the field's choices, as Airtable does.
 */
import { newId } from './base-schema.ts';
import { ApiError } from './http.ts';
import type { CellValue, ChoiceModel, FieldModel } from './model.ts';

/**
 * The stored form of a cell, or undefined for "empty" (Airtable omits empty cells).
 * `choices` is the field's option list to check against and, with typecast, to extend: pass a
 * copy so a write that fails later adds no options.
 */
export function normaliseCell(
  field: Pick<FieldModel, 'name' | 'type'>,
  choices: ChoiceModel[],
  value: unknown,
  typecast: boolean,
): CellValue | undefined {
  const invalid = () =>
    new ApiError(422, 'INVALID_VALUE_FOR_COLUMN', `Field "${field.name}" cannot accept the provided value`);
  if (value === null || value === undefined || value === '') return undefined;
  const ensureChoice = (option: string) => {
    if (choices.some((choice) => choice.name === option)) return;
    if (!typecast) {
      throw new ApiError(
        422,
        'INVALID_MULTIPLE_CHOICE_OPTIONS',
        `Insufficient permissions to create new select option ""${option}""`,
      );
    }
    choices.push({ id: newId('sel'), name: option });
  };
  switch (field.type) {
    case 'singleSelect': {
      if (typeof value !== 'string') throw invalid();
      ensureChoice(value);
      return value;
    }
    case 'multipleSelects': {
      let items: unknown[];
      if (Array.isArray(value)) items = value;
      else if (typecast && typeof value === 'string') items = value.split(',').map((item) => item.trim());
      else throw invalid();
      const options: string[] = [];
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
    default: {
      // Every other creatable type holds text.
      if (typeof value === 'string') return value;
      if (typecast && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
      if (typecast && Array.isArray(value)) return value.map(String).join(', ');
      throw invalid();
    }
  }
}
