// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';

const reactGa = vi.hoisted(() => ({ initialize: vi.fn(), send: vi.fn(), event: vi.fn() }));
vi.mock('react-ga4', () => ({ default: reactGa }));

import {
  configureAnalytics,
  countPageView,
  disableAnalytics,
  enableAnalytics,
  trackEvent,
  trackPageView,
  trackStoreClick,
  validateEvent,
} from '#src/lib/analytics.ts';

const SCRIPT_URL = 'http://127.0.0.1:1/gtag/js';

describe('analytics', () => {
  beforeEach(() => {
    reactGa.initialize.mockClear();
    reactGa.send.mockClear();
    reactGa.event.mockClear();
    configureAnalytics({ measurementId: 'G-TEST', scriptUrl: SCRIPT_URL });
  });

  it('sends nothing before consent', async () => {
    await trackPageView('/about', 'About Us');
    await trackEvent({ category: 'c', action: 'a' });
    expect(reactGa.initialize).not.toHaveBeenCalled();
    expect(reactGa.send).not.toHaveBeenCalled();
    expect(reactGa.event).not.toHaveBeenCalled();
  });

  it('initialises once after consent without an automatic page view', async () => {
    await enableAnalytics();
    await enableAnalytics();
    expect(reactGa.initialize).toHaveBeenCalledTimes(1);
    const [id, options] = reactGa.initialize.mock.calls[0] as [
      string,
      { gtagUrl: string; gtagOptions: Record<string, unknown> },
    ];
    expect(id).toBe('G-TEST');
    expect(options.gtagUrl).toBe(SCRIPT_URL);
    expect(options.gtagOptions.send_page_view).toBe(false);
  });

  it('records page views with path and title after consent, and none after withdrawal', async () => {
    await enableAnalytics();
    await trackPageView('/privacy', 'Privacy Policy | Podling');
    expect(reactGa.send).toHaveBeenCalledWith({
      hitType: 'pageview',
      page: '/privacy',
      title: 'Privacy Policy | Podling',
    });
    disableAnalytics();
    await trackPageView('/terms', 'Terms');
    expect(reactGa.send).toHaveBeenCalledTimes(1);
    expect((window as unknown as Record<string, unknown>)['ga-disable-G-TEST']).toBe(true);
  });

  it('counts each history entry once, whoever asks first, and the entry after it again', async () => {
    // The text page's inline script counts the full load; the app, taking over, asks for it again.
    await countPageView('default', '/about', 'About Us | Podling');
    await countPageView('default', '/about', 'About Us | Podling');
    await countPageView('k1', '/terms', 'Terms');
    await countPageView('default', '/about', 'About Us | Podling'); // Back: counted again
    expect(reactGa.send.mock.calls.map((call) => (call[0] as { page: string }).page)).toEqual([
      '/about',
      '/terms',
      '/about',
    ]);
  });

  it('does nothing and warns once without a measurement id', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    configureAnalytics({ measurementId: '', scriptUrl: SCRIPT_URL });
    expect(await enableAnalytics()).toBeNull();
    await trackPageView('/', 'Home');
    await enableAnalytics();
    expect(reactGa.initialize).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/No measurement id/);
  });

  it('sends store clicks by beacon with platform, location and context', async () => {
    await enableAnalytics();
    await trackStoreClick('iOS', 'hero_section');
    expect(reactGa.event).toHaveBeenCalledTimes(1);
    const [action, params] = reactGa.event.mock.calls[0] as [string, Record<string, unknown>];
    expect(action).toBe('store_click');
    expect(params).toMatchObject({ transport_type: 'beacon', platform: 'iOS', location: 'hero_section' });
    expect(typeof params.timestamp).toBe('string');
    expect(params.userAgent).toBe(navigator.userAgent);
  });

  it('defaults the transport to beacon', async () => {
    await enableAnalytics();
    await trackEvent({ category: 'Waitlist', action: 'join' });
    expect(reactGa.event.mock.calls[0]?.[1]).toMatchObject({
      transport_type: 'beacon',
      event_category: 'Waitlist',
    });
  });

  it.each([
    [{ action: 'a' }, 'category is required'],
    [{ category: 'c' }, 'action is required'],
    [{ category: 'c', action: 'a', value: Number.NaN }, 'value must be a finite number'],
    [{ category: 'c', action: 'a', transport: 'pigeon' }, 'transport must be one of beacon, xhr, image'],
    [{ category: 'c', action: 'a', nonInteraction: 'yes' }, 'nonInteraction must be a boolean'],
    [{ category: 'c', action: 'a', label: 3 }, 'label must be a string'],
  ])('warns on the console only about bad arguments: %o', async (event, problem) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await enableAnalytics();
    await trackEvent(event as never);
    expect(reactGa.event).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(problem));
  });

  it('accepts a complete, valid event', () => {
    expect(
      validateEvent({
        category: 'c',
        action: 'a',
        label: 'l',
        value: 1,
        nonInteraction: true,
        transport: 'xhr',
      }),
    ).toEqual([]);
    expect(validateEvent(null)).toEqual(['an event object is required']);
  });
});
