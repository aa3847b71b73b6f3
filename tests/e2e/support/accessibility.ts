import type { Page } from '@playwright/test';

/**
 * In-page measurements for the WCAG 2.2 AA checks axe cannot make (geometry, focus, computed
 * styles). Each returns plain data: the spec asserts on it, so a failure names the element.
 */

/** A phone (390 px) and a desktop (1280 px), the widths every rule is checked at. */
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** WCAG 1.4.10's width: 1280 CSS px at 400 % zoom. The phone-width visits narrow to it. */
export const REFLOW_VIEWPORT = { width: 320, height: 640 } as const;

/** WCAG 1.4.12's minimum spacing, applied as a user stylesheet would. */
export const TEXT_SPACING_CSS = `
  *, *::before, *::after {
    line-height: 1.5 !important;
    letter-spacing: 0.12em !important;
    word-spacing: 0.16em !important;
  }
  p { margin-bottom: 2em !important; }
`;

/** Waits until the browser has painted twice (a focus scroll or a style change has landed). */
export async function afterPaint(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Controls smaller than 24×24 px whose 24 px circle (centred on the control) meets another
 * control or its circle (WCAG 2.5.8). Links inside a sentence are exempt, as the rule allows.
 */
export async function undersizedTargets(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate((scopeSelector) => {
    const MIN = 24;
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [tabindex]:not([tabindex="-1"])';
    const describe = (element: Element) => {
      const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
      return `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''} "${text}"`;
    };
    /** A link whose paragraph or list item holds other words: "inline" in WCAG's exception. */
    const inSentence = (element: Element) => {
      if (element.tagName !== 'A') return false;
      const block = element.closest('p, li, dd, td');
      if (!block) return false;
      const own = (element.textContent ?? '').trim();
      const all = (block.textContent ?? '').trim();
      return all.length > own.length + 1;
    };
    const visible = (element: Element) => {
      if (element.closest('[inert], [aria-hidden="true"]')) return false;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      const rect = element.getBoundingClientRect();
      return rect.width > 1 && rect.height > 1;
    };
    // A label-wrapped checkbox is as big as its label: measure the card, not the input.
    const targetRect = (element: Element) =>
      (element.tagName === 'INPUT' && element.closest('label')?.getBoundingClientRect()) ||
      element.getBoundingClientRect();
    const targets = [...document.querySelectorAll(selector)].filter(visible).map((element) => ({
      element,
      rect: targetRect(element),
    }));
    const failures: string[] = [];
    for (const target of targets) {
      const { rect, element } = target;
      if (!element.closest(scopeSelector)) continue;
      if (rect.width >= MIN - 0.5 && rect.height >= MIN - 0.5) continue;
      if (inSentence(element)) continue;
      const cx = rect.left + rect.width / 2;
      const cy = rect.top + rect.height / 2;
      const clash = targets.find((other) => {
        if (other === target || other.element.contains(element) || element.contains(other.element)) {
          return false;
        }
        const r = other.rect;
        // Distance from this circle's centre to the other target's box.
        const dx = Math.max(r.left - cx, 0, cx - r.right);
        const dy = Math.max(r.top - cy, 0, cy - r.bottom);
        if (Math.hypot(dx, dy) < MIN / 2) return true;
        // Two undersized targets: their circles must not overlap either.
        const otherSmall = r.width < MIN - 0.5 || r.height < MIN - 0.5;
        const ox = r.left + r.width / 2;
        const oy = r.top + r.height / 2;
        return otherSmall && Math.hypot(cx - ox, cy - oy) < MIN;
      });
      if (clash) {
        failures.push(
          `${describe(element)} is ${Math.round(rect.width)}×${Math.round(rect.height)} px and too close to ${describe(clash.element)}`,
        );
      }
    }
    return failures;
  }, scope);
}

/** The heading outline as a screen reader lists it: levels and names of headings people can reach. */
export async function headingOutline(page: Page): Promise<{ level: number; name: string }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')]
      .filter((element) => {
        if (element.closest('[aria-hidden="true"], [inert], [hidden]')) return false;
        return getComputedStyle(element).display !== 'none';
      })
      .map((element) => ({
        level: Number(element.getAttribute('aria-level') ?? element.tagName.slice(1)),
        name: (element.textContent ?? '').trim(),
      })),
  );
}

/**
 * Elements whose text is cut off: a box that clips (overflow other than visible) while its
 * content is taller or wider than it. Deliberate scrollers and the carousel's horizontal
 * track are left out; visually hidden (1 px) text is meant to be clipped.
 */
export async function clippedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const failures: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      if (!(element.textContent ?? '').trim()) continue;
      // Embedded pages (video, calendar) scroll inside their own frame.
      if (element.querySelector('iframe')) continue;
      if (element.closest('[aria-hidden="true"], [inert], .visually-hidden, .form-honeypot')) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const clipsX = style.overflowX !== 'visible';
      const clipsY = style.overflowY !== 'visible';
      if (!clipsX && !clipsY) continue;
      const scrollsX = style.overflowX === 'auto' || style.overflowX === 'scroll';
      const scrollsY = style.overflowY === 'auto' || style.overflowY === 'scroll';
      // The carousel's track is wider than its window by design: slides move into view.
      const horizontalTrack = element.matches('.slick-list, .testimonial-standin');
      const name = `${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]}`;
      if (clipsY && !scrollsY && element.scrollHeight > element.clientHeight + 1) {
        failures.push(`${name}: ${element.scrollHeight}px of text in ${element.clientHeight}px`);
      }
      if (clipsX && !scrollsX && !horizontalTrack && element.scrollWidth > element.clientWidth + 1) {
        failures.push(`${name}: ${element.scrollWidth}px wide text in ${element.clientWidth}px`);
      }
    }
    return failures;
  });
}

/** How far the page scrolls sideways (0 when nothing is wider than the viewport). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Where the focused element is, and whether the cookie banner's card or the fixed header covers all of it. */
export type FocusCover = {
  label: string;
  hiddenBy: 'banner' | 'header' | 'off screen' | null;
  inBanner: boolean;
};

export async function focusCover(page: Page): Promise<FocusCover | null> {
  return page.evaluate(async () => {
    // After two paints, so a focus scroll or style change has landed (one round trip, not two).
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused === document.documentElement) return null;
    const labels = focused instanceof HTMLInputElement ? focused.labels?.[0]?.textContent : null;
    const name =
      focused.getAttribute('aria-label') ?? labels ?? focused.getAttribute('title') ?? focused.textContent;
    const label = `${focused.tagName.toLowerCase()} "${(name ?? '').trim().slice(0, 40)}"`;
    const rect = (
      (focused.tagName === 'INPUT' && focused.closest('label')) ||
      focused
    ).getBoundingClientRect();
    // Covered: the cover's box holds the whole control and is painted over it (the skip link,
    // for one, is drawn above the header it sits on).
    const covers = (cover: Element | null) => {
      if (!cover) return false;
      const c = cover.getBoundingClientRect();
      const inside =
        c.left <= rect.left && c.right >= rect.right && c.top <= rect.top && c.bottom >= rect.bottom;
      if (!inside) return false;
      const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return top !== null && cover.contains(top) && !focused.contains(top);
    };
    const banner = document.querySelector('.consent-banner__inner');
    const header = document.querySelector('.site-header');
    const inBanner = banner?.contains(focused) ?? false;
    const inHeader = header?.contains(focused) ?? false;
    const offScreen =
      rect.bottom <= 0 || rect.top >= innerHeight || rect.right <= 0 || rect.left >= innerWidth;
    let hiddenBy: 'banner' | 'header' | 'off screen' | null = null;
    if (offScreen) hiddenBy = 'off screen';
    else if (!inBanner && covers(banner)) hiddenBy = 'banner';
    else if (!inHeader && covers(header)) hiddenBy = 'header';
    return { label, hiddenBy, inBanner };
  });
}
