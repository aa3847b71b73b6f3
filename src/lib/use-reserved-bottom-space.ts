import { useEffect, type RefObject } from 'react';

/** The custom property on <html> that global.css turns into scroll-padding-bottom. */
export const RESERVED_BOTTOM_PROPERTY = '--reserved-bottom-space';

/**
 * Reserves the element's height at the bottom of the page's scroll area while it is mounted, so
 * a control that receives focus is scrolled clear of a fixed or sticky bar (WCAG 2.4.11). The
 * height follows the element's real size (text wraps differently per phone, zoom and spacing).
 */
export function useReservedBottomSpace(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const root = document.documentElement;
    const reserve = () =>
      root.style.setProperty(
        RESERVED_BOTTOM_PROPERTY,
        `${Math.ceil(element.getBoundingClientRect().height)}px`,
      );
    reserve();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(reserve);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(RESERVED_BOTTOM_PROPERTY);
    };
  }, [ref]);
}
