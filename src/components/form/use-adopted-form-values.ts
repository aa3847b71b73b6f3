import { useLayoutEffect, useRef, type RefObject } from 'react';

/** What the browser held in a form when React took it over: every named value, as posted. */
export type HeldFormValues = {
  /** The first value of a field, or '' when it has none (an unchecked checkbox, a missing field). */
  text: (name: string) => string;
  /** Every value of a field (the checked boxes of a group, in document order). */
  all: (name: string) => string[];
};

/** Reads the values a form holds the way the browser would post them. */
function readHeldValues(form: HTMLFormElement): HeldFormValues {
  const data = new FormData(form);
  const all = (name: string) =>
    data.getAll(name).filter((value): value is string => typeof value === 'string');
  return { all, text: (name) => all(name)[0] ?? '' };
}

/**
 * Adopts, once, what the browser already holds in a prerendered form when React hydrates it:
 * autofill, or what a quick visitor typed and ticked before the JavaScript arrived. React keeps
 * the DOM's values while hydrating but its state starts empty, so the next render would wipe them;
 * `adopt` copies them into the form's state in the same commit, before anything renders again.
 */
export function useAdoptedFormValues(
  form: RefObject<HTMLFormElement | null>,
  adopt: (held: HeldFormValues) => void,
): void {
  const latest = useRef(adopt);
  useLayoutEffect(() => {
    latest.current = adopt;
  });
  useLayoutEffect(() => {
    if (form.current) latest.current(readHeldValues(form.current));
  }, [form]);
}
