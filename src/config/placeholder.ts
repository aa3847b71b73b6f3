/**
 * Marks a value as a stand-in the owner must replace before launch. The value is used as is;
 * the mark is recorded so `npm run launch-check` (and the production build's warning) can list
 * every stand-in from where it is defined, with no separate list to keep in step.
 * To launch, replace the value and remove the `placeholder(…)` around it.
 */

/** One stand-in value and what the owner should put there. */
export interface PlaceholderMark {
  readonly value: string;
  readonly note: string;
}

const marks: PlaceholderMark[] = [];

/** Returns `value` unchanged, recording it as a placeholder with a note for the owner. */
export function placeholder<T extends string>(value: T, note: string): T {
  marks.push({ value, note });
  return value;
}

/** Every value marked with placeholder() in the modules loaded so far. */
export function placeholderMarks(): readonly PlaceholderMark[] {
  return [...marks];
}
