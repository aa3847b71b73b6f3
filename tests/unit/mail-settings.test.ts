import { QUOTE_FORM } from '#src/lib/forms/forms.ts';
import { parseMailbox, parseMailSettings } from '#src/server/settings.ts';

describe('mail settings', () => {
  it('reads a sender as an address or "Name <address>", and refuses anything else', () => {
    expect(parseMailbox('hello@podling.app')).toEqual({ email: 'hello@podling.app' });
    expect(parseMailbox('Podling <hello@podling.app>')).toEqual({
      email: 'hello@podling.app',
      name: 'Podling',
    });
    expect(parseMailbox('"Podling Team" <hello@podling.app>')).toEqual({
      email: 'hello@podling.app',
      name: 'Podling Team',
    });
    for (const bad of ['', 'Podling', 'a@b', 'Podling <hello@podling.app>\r\nBcc: x@y.z']) {
      expect(parseMailbox(bad), bad).toBeNull();
    }
  });

  it('needs a LINK_SECRET of 32+ characters everywhere: no secret from the repository signs a link', () => {
    expect(() => parseMailSettings({})).toThrow(/LINK_SECRET is not set/);
    expect(() => parseMailSettings({ LINK_SECRET: 'short' })).toThrow(/at least 32/);
    const settings = parseMailSettings({ LINK_SECRET: 'k'.repeat(32) });
    expect(settings.linkSecrets).toEqual(['k'.repeat(32)]);
    expect(settings.teamEmails.SCHOOLS_TEAM_EMAIL).toBe(QUOTE_FORM.conduct.tellsTeam.defaultAddress);
  });

  it('honours a previous secret after a rotation, current first; ignores a short one', () => {
    const current = 'c'.repeat(40);
    const previous = 'p'.repeat(40);
    expect(parseMailSettings({ LINK_SECRET: current, LINK_SECRET_PREVIOUS: previous }).linkSecrets).toEqual([
      current,
      previous,
    ]);
    expect(parseMailSettings({ LINK_SECRET: current, LINK_SECRET_PREVIOUS: 'x' }).linkSecrets).toEqual([
      current,
    ]);
  });

  it('names a bad MAIL_FROM or SCHOOLS_TEAM_EMAIL', () => {
    const secret = { LINK_SECRET: 's'.repeat(40) };
    expect(() => parseMailSettings({ ...secret, MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM/);
    expect(() => parseMailSettings({ ...secret, SCHOOLS_TEAM_EMAIL: 'team' })).toThrow(/SCHOOLS_TEAM_EMAIL/);
  });
});
