import { useEffect, useState, type RefObject } from 'react';

/**
 * True while keyboard focus or the pointer is inside the element (WAI-ARIA carousel pattern:
 * rotation stops while the visitor is there). Focus on `except` (the rotation toggle) does not
 * count, so that pressing Play starts rotation at once.
 */
export function useInteractionPause(
  ref: RefObject<HTMLElement | null>,
  except?: RefObject<HTMLElement | null>,
): boolean {
  const [focusInside, setFocusInside] = useState(false);
  const [pointerInside, setPointerInside] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const onFocusIn = (event: FocusEvent) => setFocusInside(event.target !== except?.current);
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (!(next instanceof Node) || !element.contains(next)) setFocusInside(false);
    };
    const onPointerEnter = () => setPointerInside(true);
    const onPointerLeave = () => setPointerInside(false);
    element.addEventListener('focusin', onFocusIn);
    element.addEventListener('focusout', onFocusOut);
    element.addEventListener('pointerenter', onPointerEnter);
    element.addEventListener('pointerleave', onPointerLeave);
    return () => {
      element.removeEventListener('focusin', onFocusIn);
      element.removeEventListener('focusout', onFocusOut);
      element.removeEventListener('pointerenter', onPointerEnter);
      element.removeEventListener('pointerleave', onPointerLeave);
    };
  }, [ref, except]);

  return focusInside || pointerInside;
}
