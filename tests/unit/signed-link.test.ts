import {
  checkLink,
  LINK_LIFETIME_SECONDS,
  type LinkClaims,
  type LinkValues,
  linkExpiry,
  signLink,
} from '#src/server/links/tokens.ts';
import { linkSecretProblem } from '#src/server/settings.ts';

const SECRET = 'k'.repeat(40);
const OTHER_SECRET = 'z'.repeat(40);
const MADE_AT = new Date('2026-03-02T10:00:00Z');
const seconds = (date: Date) => date.getTime() / 1000;
const later = (from: Date, secondsLater: number) => new Date(from.getTime() + secondsLater * 1000);

const confirm: LinkClaims = {
  purpose: 'confirm',
  form: 'waitlist',
  email: 'parent@example.co.uk',
  expiresAt: linkExpiry('confirm', MADE_AT),
};

describe('signed links', () => {
  it('a link checks out for its purpose until it expires, seven days after it was made', async () => {
    const token = await signLink(confirm, SECRET);
    expect(confirm.expiresAt - seconds(MADE_AT)).toBe(LINK_LIFETIME_SECONDS);
    expect(await checkLink(token, 'confirm', [SECRET], MADE_AT)).toEqual({ ok: true, claims: confirm });
    const lastSecond = later(MADE_AT, LINK_LIFETIME_SECONDS);
    expect((await checkLink(token, 'confirm', [SECRET], lastSecond)).ok).toBe(true);
    const expired = await checkLink(token, 'confirm', [SECRET], later(lastSecond, 1));
    // An expired link still names its address, so its page can offer to sign up again.
    expect(expired).toEqual({ ok: false, reason: 'expired', claims: confirm });
  });

  it('carries a held change’s values exactly', async () => {
    const change: LinkClaims = {
      purpose: 'change',
      form: 'quote',
      email: 'head@school.sch.uk',
      expiresAt: linkExpiry('change', MADE_AT),
      values: { name: 'Ms Ngozi Adé', useCases: ['Literacy', 'Other: <b>radio</b> & "clubs"'] },
    };
    const token = await signLink(change, SECRET);
    expect(await checkLink(token, 'change', [SECRET], MADE_AT)).toEqual({ ok: true, claims: change });
    // Signed, yet not a value a form posts (a string, or a list of strings): never applied.
    for (const values of [{ n: 1 }, { n: [['nested']] }, { n: ['a', 2] }, ['a'], 'a']) {
      const odd = await signLink({ ...change, values: values as unknown as LinkValues }, SECRET);
      expect(await checkLink(odd, 'change', [SECRET], MADE_AT)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('refuses a tampered payload or signature, another key, and garbage', async () => {
    const token = await signLink(confirm, SECRET);
    const [payload = '', signature = ''] = token.split('.');
    const forged = btoa(
      JSON.stringify({ p: 'confirm', f: 'waitlist', e: 'victim@example.com', x: confirm.expiresAt }),
    )
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
    expect(await checkLink(`${forged}.${signature}`, 'confirm', [SECRET], MADE_AT)).toEqual({
      ok: false,
      reason: 'tampered',
    });
    const flipped = `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect((await checkLink(flipped, 'confirm', [SECRET], MADE_AT)).ok).toBe(false);
    expect(await checkLink(token, 'confirm', [OTHER_SECRET], MADE_AT)).toEqual({
      ok: false,
      reason: 'tampered',
    });
    for (const garbage of ['', 'abc', 'a.b.c', `${payload}.`, `.${signature}`, `${payload}.${signature}!`]) {
      expect((await checkLink(garbage, 'confirm', [SECRET], MADE_AT)).ok, garbage).toBe(false);
    }
  });

  it('a link made for one purpose does nothing for another', async () => {
    const token = await signLink(confirm, SECRET);
    expect(await checkLink(token, 'unsubscribe', [SECRET], MADE_AT)).toEqual({
      ok: false,
      reason: 'wrong-purpose',
    });
    expect(await checkLink(token, 'change', [SECRET], MADE_AT)).toEqual({
      ok: false,
      reason: 'wrong-purpose',
    });
  });

  it('after a key rotation, links signed with the previous secret still work while it is listed', async () => {
    const token = await signLink(confirm, OTHER_SECRET);
    expect((await checkLink(token, 'confirm', [SECRET, OTHER_SECRET], MADE_AT)).ok).toBe(true);
    expect((await checkLink(token, 'confirm', [SECRET], MADE_AT)).ok).toBe(false);
  });

  it('unsubscribe links keep working for years; confirmation links for a week', () => {
    const week = linkExpiry('confirm', MADE_AT) - seconds(MADE_AT);
    const unsubscribe = linkExpiry('unsubscribe', MADE_AT) - seconds(MADE_AT);
    expect(week).toBe(7 * 24 * 3600);
    expect(unsubscribe).toBeGreaterThan(4 * 365 * 24 * 3600);
  });

  it('will not sign with a missing or short secret, and says why', async () => {
    expect(linkSecretProblem(undefined)).toMatch(/not set/);
    expect(linkSecretProblem('short')).toMatch(/5 characters; it needs at least 32/);
    expect(linkSecretProblem(SECRET)).toBeNull();
    await expect(signLink(confirm, 'short')).rejects.toThrow(/at least 32/);
    // A short secret listed for checking is ignored rather than trusted.
    const token = await signLink(confirm, SECRET);
    expect((await checkLink(token, 'confirm', ['short'], MADE_AT)).ok).toBe(false);
  });
});
