import {
  inboxKey,
  kvMailLedger,
  MAIL_LIMITS,
  type MailLedgerKv,
  memoryMailLedger,
  TEAM_MAIL_LIMITS,
  withOneMore,
} from '#src/server/mail/ledger.ts';

const MINUTE = 60 * 1000;
const START = Date.UTC(2026, 4, 4, 9, 0, 0);
const at = (minutes: number) => new Date(START + minutes * MINUTE);

/** A KV stand-in with the part of the API the ledger uses. */
function fakeKv(): MailLedgerKv & { ttl: Map<string, number | undefined> } {
  const values = new Map<string, string>();
  const ttl = new Map<string, number | undefined>();
  return {
    ttl,
    async get(key) {
      return values.get(key) ?? null;
    },
    async put(key, value, options) {
      values.set(key, value);
      ttl.set(key, options?.expirationTtl);
    },
  };
}

describe('mail limits: one email per 10 minutes, 3 a day, per inbox', () => {
  it('the rule as a table', () => {
    const rows: [number[], number, boolean][] = [
      [[], 0, true],
      [[0], 9.99, false],
      [[0], 10, true],
      [[0, 10], 20, true],
      [[0, 10, 20], 30, false], // the fourth in a day
      [[0, 10, 20], 24 * 60 - 0.01, false],
      [[0, 10, 20], 24 * 60, true], // the first has left the window
    ];
    for (const [sentMinutes, nowMinutes, allowed] of rows) {
      expect(
        withOneMore(
          sentMinutes.map((minutes) => at(minutes).getTime()),
          at(nowMinutes).getTime(),
        ) !== undefined,
        `sent at ${sentMinutes.join(', ')}; now ${nowMinutes}`,
      ).toBe(allowed);
    }
    expect(MAIL_LIMITS).toEqual({ minGapMs: 10 * MINUTE, perWindow: 3, windowMs: 24 * 60 * MINUTE });
  });

  for (const [name, make] of [
    ['in memory', () => memoryMailLedger()],
    ['in KV', () => kvMailLedger(fakeKv())],
  ] as const) {
    it(`${name}: one inbox gets one email; the next waits 10 minutes; 3 a day at most`, async () => {
      const ledger = make();
      expect(await ledger.reserve('parent@example.com', at(0))).toBe(true);
      expect(await ledger.reserve('parent@example.com', at(1))).toBe(false);
      expect(await ledger.reserve('parent@example.com', at(9))).toBe(false);
      expect(await ledger.reserve('other@example.com', at(1)), 'another inbox is not held back').toBe(true);
      expect(await ledger.reserve('parent@example.com', at(10))).toBe(true);
      expect(await ledger.reserve('parent@example.com', at(20))).toBe(true);
      expect(await ledger.reserve('parent@example.com', at(300)), 'a fourth the same day').toBe(false);
      expect(await ledger.reserve('parent@example.com', at(24 * 60))).toBe(true);
    });
  }

  it('in memory, a concurrent burst for one inbox reserves one send', async () => {
    const ledger = memoryMailLedger();
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => ledger.reserve('parent@example.com', at(0))),
    );
    expect(burst.filter(Boolean)).toHaveLength(1);
  });

  it('KV entries expire a day after the last send', async () => {
    const kv = fakeKv();
    await kvMailLedger(kv).reserve('parent@example.com', at(0));
    expect([...kv.ttl.values()]).toEqual([24 * 60 * 60]);
  });
});

describe("the schools team's emails about one contact: 5 a day, with no gap", () => {
  for (const [name, make] of [
    ['in memory', () => memoryMailLedger()],
    ['in KV', () => kvMailLedger(fakeKv())],
  ] as const) {
    it(`${name}: five in a row pass, the sixth that day does not; the contact's own inbox limits are apart`, async () => {
      const ledger = make();
      const team = 'team:head@school.sch.uk';
      const passed = [];
      for (let minute = 0; minute < 6; minute += 1)
        passed.push(await ledger.reserve(team, at(minute), TEAM_MAIL_LIMITS));
      expect(passed).toEqual([true, true, true, true, true, false]);
      expect(await ledger.reserve(team, at(24 * 60), TEAM_MAIL_LIMITS)).toBe(true);
      // The contact's own inbox counts separately, with its own rule.
      expect(await ledger.reserve('head@school.sch.uk', at(1))).toBe(true);
      expect(await ledger.reserve('head@school.sch.uk', at(2))).toBe(false);
    });
  }
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
