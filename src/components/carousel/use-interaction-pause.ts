import { useEffect, useState, type RefObject } from 'react';

/**
 * True while keyboard focus or the pointer is inside the element (WAI-ARIA carousel pattern:
 * rotation stops while the visitor is there). Focus on, or the pointer over, `except` (the
 * rotation toggle) does not count, so that pressing Play starts rotation at once.
 */
export function useInteractionPause(
  ref: RefObject<HTMLElement | null>,
  except?: RefObject<HTMLElement | null>,
): boolean {
  const [focusInside, setFocusInside] = useState(false);
  const [pointerInside, setPointerInside] = useState(false);
  const [pointerOnExcept, setPointerOnExcept] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const exception = except?.current ?? null;
    const onFocusIn = (event: FocusEvent) => setFocusInside(event.target !== exception);
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (!(next instanceof Node) || !element.contains(next)) setFocusInside(false);
    };
    const listeners: [HTMLElement, string, EventListener][] = [
      [element, 'focusin', onFocusIn as EventListener],
      [element, 'focusout', onFocusOut as EventListener],
      [element, 'pointerenter', () => setPointerInside(true)],
      [element, 'pointerleave', () => setPointerInside(false)],
    ];
    if (exception) {
      listeners.push(
        [exception, 'pointerenter', () => setPointerOnExcept(true)],
        [exception, 'pointerleave', () => setPointerOnExcept(false)],
      );
    }
    for (const [target, type, listener] of listeners) target.addEventListener(type, listener);
    return () => {
      for (const [target, type, listener] of listeners) target.removeEventListener(type, listener);
    };
  }, [ref, except]);

  return focusInside || (pointerInside && !pointerOnExcept);
}
