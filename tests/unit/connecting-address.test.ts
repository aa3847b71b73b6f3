// @vitest-environment node
/**
 * The connecting address `vite` and `vite preview` hand the Worker: the socket's, or behind a
 * proxy named in TRUSTED_PROXIES the nearest forwarded hop, whatever spelling either comes in.
 */
import { clientAddress, trustedProxies } from '#scripts/vite-plugins/connecting-address.ts';

describe('clientAddress', () => {
  const proxies = trustedProxies('10.0.0.1, 2001:DB8:0::1 ::ffff:10.0.0.2');

  it('names each proxy in one spelling', () => {
    expect([...proxies]).toEqual(['10.0.0.1', '2001:db8::1', '10.0.0.2']);
  });

  it.each([
    ['a client, its header ignored', '203.0.113.9', '198.51.100.7', '203.0.113.9'],
    ['an IPv4 client of a dual-stack socket', '::ffff:203.0.113.9', null, '203.0.113.9'],
    [
      'a proxy: the nearest hop that is not one',
      '10.0.0.1',
      '198.51.100.7, 203.0.113.9, 10.0.0.2',
      '203.0.113.9',
    ],
    ['a proxy spelled otherwise', '2001:db8:0:0::1', '203.0.113.9', '203.0.113.9'],
    ['a proxy without a header', '10.0.0.1', null, '10.0.0.1'],
    ['no socket address', undefined, '203.0.113.9', 'unknown'],
  ])('%s', (_, socket, forwardedFor, address) => {
    expect(clientAddress(socket, forwardedFor, proxies)).toBe(address);
  });
});
