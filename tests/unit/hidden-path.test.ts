// @vitest-environment node
/**
 * The paths the hosts never serve from the built files (the Worker and `vite preview`): the
 * forms' answer templates however a path spells them, and paths a file server could read
 * another way than they look.
 */
import { isHiddenPath } from '#src/server/doors/form-answer.ts';

describe('isHiddenPath', () => {
  it.each([
    '/__forms/waitlist.html',
    '/__forms/quote',
    '/__forms/',
    '/%5f%5fforms/waitlist.html',
    '/%5F%5Fforms/quote',
    '/_%5fforms/quote.html',
    '/__FORMS/quote.html',
    '//__forms/quote.html',
    '/./__forms/quote.html',
    '/assets/..%2f__forms/quote.html',
    '/assets/..%2F__forms/quote.html',
    '/assets/%2e%2e/__forms/quote.html',
    '/assets/%2e%2e%2f__forms/quote.html',
    '/assets/../__forms/quote.html',
    '/assets/..%5c__forms/quote.html',
    '/assets/..\\__forms/quote.html',
    '/about%00',
    '/%255f%255fforms/quote.html',
    '/%E0%A4%A',
  ])('hides %s', (path) => {
    expect(isHiddenPath(path)).toBe(true);
  });

  it.each([
    '/',
    '/about',
    '/schools/',
    '/assets/index-abc123.js',
    '/images/hero%20one.webp',
    '/__formsx',
    '/forms/quote',
  ])('serves %s', (path) => {
    expect(isHiddenPath(path)).toBe(false);
  });
});
