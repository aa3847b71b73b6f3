// @vitest-environment node
/**
 * What the limits count under: a client is one IPv4 address, or one IPv6 /64 (the block one
 * subscriber is routed), whatever spelling the host reports it in.
 */
import { clientLimitKey } from '#src/server/doors/limiters.ts';

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
