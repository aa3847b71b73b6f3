// @vitest-environment node
/**
 * What the limits count under: a client is one IPv4 address, or one IPv6 /64 (the block one
 * subscriber is routed), whatever spelling the host reports it in; an email is one inbox.
 */
import { clientAddress, clientLimitKey, inboxKey, trustedProxies } from '#src/server/request-check.ts';

describe('clientLimitKey', () => {
  it.each([
    ['an IPv4 address', '203.0.113.9', '203.0.113.9'],
    ['a full IPv6 address', '2001:0db8:0000:0001:0000:0000:0000:0005', '2001:db8:0:1::/64'],
    ['a compressed one', '2001:db8:0:1::5', '2001:db8:0:1::/64'],
    ['upper case', '2001:DB8:0:1:ABCD::9', '2001:db8:0:1::/64'],
    ['a zone id', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['brackets', '[2001:db8:0:1::5]', '2001:db8:0:1::/64'],
    ['"::" at the start', '::1', '0:0:0:0::/64'],
    ['"::" inside the prefix', '2001:db8::1:2:3:4', '2001:db8:0:0::/64'],
    ['an IPv4-mapped address', '::ffff:192.0.2.1', '192.0.2.1'],
    ['an IPv4-mapped address in hex', '::FFFF:c000:0201', '192.0.2.1'],
    ['an IPv4 tail after a prefix', '2001:db8:0:1:0:0:192.0.2.1', '2001:db8:0:1::/64'],
    ['no address', 'unknown', 'unknown'],
  ])('%s: %s → %s', (_, address, key) => {
    expect(clientLimitKey(address)).toBe(key);
  });

  it('every address of one /64 is one client; the next /64 is another', () => {
    const keys = new Set(
      Array.from({ length: 200 }, (_, i) => clientLimitKey(`2001:db8:aa:bb:${i.toString(16)}::${i + 1}`)),
    );
    expect([...keys]).toEqual(['2001:db8:aa:bb::/64']);
    expect(clientLimitKey('2001:db8:aa:bc::1')).not.toBe(clientLimitKey('2001:db8:aa:bb::1'));
  });

  it.each(['2001:db8::1::2', '2001:db8:0:1:2:3:4:5:6', '2001:db8:0:1:2:3:4', 'g::1', '::ffff:1.2.3.256'])(
    'leaves what is not an address as it is: %s',
    (address) => {
      expect(clientLimitKey(address)).toBe(address);
    },
  );
});

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

describe('inboxKey', () => {
  it.each([
    ['ana@example.com', 'ana@example.com'],
    ['ana+quotes@example.com', 'ana@example.com'],
    ['ana+a+b@example.com', 'ana@example.com'],
    ['a.na@example.com', 'a.na@example.com'],
    ['a.n.a+x@gmail.com', 'ana@gmail.com'],
    ['ana@googlemail.com', 'ana@gmail.com'],
    ['a.na+1@googlemail.com', 'ana@gmail.com'],
    ['+tag@example.com', '+tag@example.com'],
    ['josé+x@xn--bcher-kva.de', 'josé@xn--bcher-kva.de'],
    // Proton: dots, hyphens and underscores ignored, its four domains one (issue 40: 7 spellings).
    ['ana@proton.me', 'ana@proton.me'],
    ['a.na@protonmail.com', 'ana@proton.me'],
    ['a_na@protonmail.ch', 'ana@proton.me'],
    ['a-n-a@pm.me', 'ana@proton.me'],
    ['a.n_a-+tag@proton.me', 'ana@proton.me'],
    // Fastmail's subdomain addressing, and its +tags.
    ['anything@ana.fastmail.com', 'ana@fastmail.com'],
    ['x@ana.fastmail.fm', 'ana@fastmail.fm'],
    ['ana+x@fastmail.com', 'ana@fastmail.com'],
    // iCloud's three domains are one account; dots there are real.
    ['ana@me.com', 'ana@icloud.com'],
    ['ana+x@mac.com', 'ana@icloud.com'],
    ['a.na@icloud.com', 'a.na@icloud.com'],
    // Elsewhere nothing is guessed.
    ['a_na@example.org', 'a_na@example.org'],
    ['x@ana.example.com', 'x@ana.example.com'],
  ])('%s is the inbox %s', (email, key) => {
    expect(inboxKey(email)).toBe(key);
  });
});
