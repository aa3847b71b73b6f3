import {
  DEFAULT_SCHOOLS_TEAM_EMAIL,
  LOCAL_LINK_SECRET,
  parseMailbox,
  parseMailSettings,
} from '#src/server/mail/mail-settings.ts';

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

  it('a deploy needs LINK_SECRET; a local run signs with the public development secret', () => {
    expect(() => parseMailSettings({}, { local: false })).toThrow(/LINK_SECRET is not set/);
    expect(() => parseMailSettings({ LINK_SECRET: 'short' }, { local: false })).toThrow(/at least 32/);
    const local = parseMailSettings({}, { local: true });
    expect(local.linkSecrets).toEqual([LOCAL_LINK_SECRET]);
    expect(local.schoolsTeamEmail).toBe(DEFAULT_SCHOOLS_TEAM_EMAIL);
  });

  it('honours a previous secret after a rotation, current first; ignores a short one', () => {
    const current = 'c'.repeat(40);
    const previous = 'p'.repeat(40);
    expect(
      parseMailSettings({ LINK_SECRET: current, LINK_SECRET_PREVIOUS: previous }, { local: false })
        .linkSecrets,
    ).toEqual([current, previous]);
    expect(
      parseMailSettings({ LINK_SECRET: current, LINK_SECRET_PREVIOUS: 'x' }, { local: false }).linkSecrets,
    ).toEqual([current]);
  });

  it('names a bad MAIL_FROM or SCHOOLS_TEAM_EMAIL', () => {
    const secret = { LINK_SECRET: 's'.repeat(40) };
    expect(() => parseMailSettings({ ...secret, MAIL_FROM: 'nobody' }, { local: false })).toThrow(
      /MAIL_FROM/,
    );
    expect(() => parseMailSettings({ ...secret, SCHOOLS_TEAM_EMAIL: 'team' }, { local: false })).toThrow(
      /SCHOOLS_TEAM_EMAIL/,
    );
  });
});
