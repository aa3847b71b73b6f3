import { EMAIL_COPY } from '#src/config/messages.ts';
import { queueOutcomeMail, type WriteOutcome } from '#src/server/mail/plan.ts';
import { sendMailJobs } from '#src/server/mail/send.ts';
import { kvMailLedger, type MailLedgerKv, memoryMailLedger } from '#src/server/mail/ledger.ts';
import type { MailJob } from '#src/server/mail/message.ts';
import { parseMailSettings } from '#src/server/settings.ts';
import {
  admitNotice,
  eraseHeldNotices,
  heldNotices,
  queueTeamDigests,
  TEAM_NOTICES_PER_HOUR,
} from '#src/server/mail/team-inbox.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The team inbox's ceiling as the ledger counts it (team-inbox.ts). */
const TEAM_HOURLY = { minGapMs: 0, perWindow: TEAM_NOTICES_PER_HOUR, windowMs: HOUR };
// Any clock: the digest's hour is the clock hour its quotes were written in.
const START = Date.UTC(2026, 4, 4, 9, 0, 0);
const TEAM = 'schools@podling.app';
/** The schools team, as its ceiling and held notices are known (its address setting). */
const SCHOOLS = 'SCHOOLS_TEAM_EMAIL';
const settings = parseMailSettings({ LINK_SECRET: 's'.repeat(40), SCHOOLS_TEAM_EMAIL: TEAM });

/** The Worker's mail with a queue that keeps its jobs, over `ledger`. */
function mailOver(ledger = memoryMailLedger()) {
  const jobs: MailJob[] = [];
  const enqueue = async (job: MailJob) => void jobs.push(job);
  return { jobs, mail: { settings, ledger, enqueue, deadLetter: undefined } };
}
/** A Workers KV namespace in memory. */
function memoryKv(): MailLedgerKv {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key) ?? null,
    put: async (key, value) => void values.set(key, value),
  };
}
const toTeam = (jobs: MailJob[]) => jobs.filter((job) => job.message.to === TEAM).map((job) => job.message);
const digests = (jobs: MailJob[]) =>
  toTeam(jobs).filter((message) => message.idempotencyKey.startsWith('team-digest:'));

const quote = (n: number, contact = `head${n}@school${n}.sch.uk`): WriteOutcome => ({
  form: 'quote',
  email: contact,
  outcome: 'created',
  values: { email: contact, 'School Name': `School ${n}` },
  key: `msg-${n}`,
});

describe("the schools team's inbox: a ceiling an hour, and a digest of what it held back", () => {
  it(`45 quotes from 45 addresses in a minute: ${TEAM_NOTICES_PER_HOUR} notices, then one digest of the other 15 once the hour has ended`, async () => {
    const { jobs, mail } = mailOver();
    for (let n = 1; n <= 45; n += 1) {
      const result = await queueOutcomeMail(mail, quote(n), 'https://www.podling.app', {
        now: () => START + n * 1000,
      });
      expect(result.held).toBe(n > 30 ? 1 : 0);
    }
    expect(toTeam(jobs)).toHaveLength(30);
    // Every contact still has its acknowledgement.
    expect(jobs.filter((job) => job.message.to !== TEAM)).toHaveLength(45);
    // Within the hour, even a run of the cron sends no digest yet.
    expect(await queueTeamDigests(mail, new Date(START + 50 * MINUTE))).toBe(0);
    expect(digests(jobs)).toEqual([]);

    // The next notice-producing write after the hour turns over sends the digest first.
    await queueOutcomeMail(mail, quote(46), 'https://www.podling.app', {
      now: () => START + HOUR + 3 * MINUTE,
    });
    const [digest, ...others] = digests(jobs);
    expect(others).toEqual([]);
    expect(digest?.subject).toBe(EMAIL_COPY.schoolsTeam.digest.subject(15));
    expect(digest?.idempotencyKey).toMatch(/^team-digest:[0-9a-f]{64}$/);
    for (let n = 31; n <= 45; n += 1) {
      const when = new Date(START + n * 1000).toISOString().slice(0, 16).replace('T', ' ');
      expect(digest?.text).toContain(`${when} UTC: School ${n}, head${n}@school${n}.sch.uk (new request)`);
      expect(digest?.html).toContain(`School ${n}, head${n}@school${n}.sch.uk`);
    }
    expect(digest?.text).not.toContain('School 30,');
    // The 46th quote came more than an hour after the first 30: its notice went out.
    expect(toTeam(jobs).at(-1)?.subject).toBe(EMAIL_COPY.schoolsTeam.new.subject('School 46'));
    // Once sent, no later run sends that hour's digest again.
    expect(await queueTeamDigests(mail, new Date(START + 2 * HOUR + 5 * MINUTE))).toBe(0);
    expect(digests(jobs)).toHaveLength(1);
  });

  it('the ceiling is any 60 minutes, not the clock hour; the cap per contact stays 5 a day', async () => {
    const { jobs, mail } = mailOver();
    for (let n = 1; n <= 30; n += 1)
      await queueOutcomeMail(mail, quote(n), 'https://x.example', { now: () => START + 59 * MINUTE });
    const next = await queueOutcomeMail(mail, quote(31), 'https://x.example', {
      now: () => START + 61 * MINUTE,
    });
    expect(next.held).toBe(1);
    expect(toTeam(jobs)).toHaveLength(30);

    const { jobs: contactJobs, mail: contactMail } = mailOver();
    const results = [];
    for (let n = 1; n <= 7; n += 1)
      results.push(
        await queueOutcomeMail(
          contactMail,
          { ...quote(n, 'same@school.sch.uk'), outcome: 'held' },
          'https://x',
          {
            now: () => START + n * MINUTE,
          },
        ),
      );
    expect(toTeam(contactJobs)).toHaveLength(5);
    expect(results.map((result) => result.held)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('the digest is one email however often it is planned or delivered: its key names its notices', async () => {
    const values = new Map<string, string>();
    const kv: MailLedgerKv = {
      get: async (key) => values.get(key) ?? null,
      put: async (key, value) => void values.set(key, value),
    };
    const { jobs, mail } = mailOver(kvMailLedger(kv));
    for (let n = 1; n <= 32; n += 1)
      await queueOutcomeMail(mail, quote(n), 'https://x', { now: () => START + n * 1000 });
    // Two planners (the cron, and a write in another isolate) reading the same held list.
    const reads = [heldNotices(kv, SCHOOLS), heldNotices(kv, SCHOOLS)].map((held) =>
      held.ended(new Date(START + HOUR + 5 * MINUTE)),
    );
    expect((await Promise.all(reads)).map((held) => held.length)).toEqual([1, 1]);
    await queueTeamDigests(mail, new Date(START + HOUR + 5 * MINUTE));
    expect(digests(jobs).map((digest) => digest.subject)).toEqual([EMAIL_COPY.schoolsTeam.digest.subject(2)]);
    // Delivered twice by the queue: sent once.
    const sent: string[] = [];
    const ledger = kvMailLedger(kv);
    const job = jobs.find((queued) => queued.message.idempotencyKey.startsWith('team-digest:'))!;
    for (let delivery = 0; delivery < 2; delivery += 1)
      await sendMailJobs([{ message: { attempts: 1, ack: () => undefined, retry: () => undefined }, job }], {
        mailer: { send: async (m) => (sent.push(m.idempotencyKey), { id: m.idempotencyKey }) },
        ledger,
        log: () => undefined,
      });
    expect(sent).toEqual([job.message.idempotencyKey]);
  });

  it('every held notice goes out in exactly one digest, whatever the order, timing or repetition of the triggers', async () => {
    const kv = memoryKv();
    const { jobs, mail } = mailOver(kvMailLedger(kv));
    // The machine's clock, which a trigger's time (`now`) may run ahead of.
    const clock = (ms: number) => ({ now: () => (vi.setSystemTime(START + ms), START + ms) });
    const trigger = (ms: number, runner = mail) => queueTeamDigests(runner, new Date(START + ms));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let n = 1; n <= 31; n += 1) await queueOutcomeMail(mail, quote(n), 'https://x', clock(n * 1000));
      // Fired early (its time an hour ahead of the clock): the hour's one held notice goes now.
      expect(await trigger(HOUR + 5 * MINUTE)).toBe(1);
      // One more held in the same hour, after that digest; then the trigger on time, twice, and late.
      await queueOutcomeMail(mail, quote(32), 'https://x', clock(40 * MINUTE));
      for (const at of [HOUR + 5 * MINUTE, HOUR + 5 * MINUTE, 2 * HOUR + 5 * MINUTE, 3 * HOUR]) {
        vi.setSystemTime(START + at);
        await trigger(at);
      }
      // One held every 5 hours for 40 hours, every trigger missed (the ceiling met by others),
      // then a run, the same run in another isolate, and the next hour's.
      for (let n = 33; n <= 40; n += 1) {
        const hour = 4 * HOUR + (n - 33) * 5 * HOUR;
        for (let m = 0; m < TEAM_NOTICES_PER_HOUR; m += 1)
          await mail.ledger.reserve('team-inbox', new Date(START + hour), TEAM_HOURLY);
        const at = new Date(START + hour + MINUTE);
        const contact = `head${n}@school${n}.sch.uk`;
        const notice = {
          id: `n${n}`,
          subject: `School ${n}`,
          contact,
          at: at.toISOString(),
          kind: 'new' as const,
        };
        expect(await admitNotice(mail.ledger, { team: SCHOOLS, notice }, at)).toBe(false);
      }
      vi.setSystemTime(START + 44 * HOUR);
      await trigger(44 * HOUR);
      await trigger(44 * HOUR, mailOver(kvMailLedger({ get: kv.get, put: kv.put })).mail);
      await trigger(45 * HOUR);
    } finally {
      vi.useRealTimers();
    }
    const listed = digests(jobs).flatMap((digest) =>
      [...digest.text.matchAll(/School (\d+), head/g)].map((match) => Number(match[1])),
    );
    expect(listed.sort((a, b) => a - b)).toEqual([31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
    expect(new Set(digests(jobs).map((digest) => digest.idempotencyKey)).size).toBe(digests(jobs).length);
  });

  it('past the 500 one digest lists, the rest are counted, each count told once', async () => {
    const { jobs, mail } = mailOver(kvMailLedger(memoryKv()));
    const hold = async (n: number) => {
      const at = new Date(START + n);
      const notice = {
        id: `n${n}`,
        subject: `School ${n}`,
        contact: `h${n}@s.sch.uk`,
        at: at.toISOString(),
        kind: 'new' as const,
      };
      expect(await admitNotice(mail.ledger, { team: SCHOOLS, notice }, at)).toBe(false);
    };
    for (let m = 0; m < TEAM_NOTICES_PER_HOUR; m += 1)
      await mail.ledger.reserve('team-inbox', new Date(START), TEAM_HOURLY);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(START + 10 * MINUTE);
      for (let n = 1; n <= 505; n += 1) await hold(n);
      // Early, then three more held in the hour, then on time.
      await queueTeamDigests(mail, new Date(START + HOUR + 5 * MINUTE));
      for (let n = 506; n <= 508; n += 1) await hold(n);
      vi.setSystemTime(START + HOUR + 5 * MINUTE);
      await queueTeamDigests(mail, new Date(START + HOUR + 5 * MINUTE));
      await queueTeamDigests(mail, new Date(START + 2 * HOUR + 5 * MINUTE));
    } finally {
      vi.useRealTimers();
    }
    const copy = EMAIL_COPY.schoolsTeam.digest;
    expect(digests(jobs).map((digest) => digest.subject)).toEqual([copy.subject(505), copy.subject(3)]);
    expect(digests(jobs)[0]?.text).toContain(copy.more(5));
    expect(digests(jobs)[1]?.text).toContain(copy.more(3));
  });

  it("erasure drops a contact's held notices from the hours still kept, keeping each hour's expiry, and the digest lists the rest", async () => {
    const values = new Map<string, string>();
    const puts: { key: string; expiration?: number }[] = [];
    const kv: MailLedgerKv = {
      get: async (key) => values.get(key) ?? null,
      put: async (key, value, options) => {
        values.set(key, value);
        puts.push({ key, ...(options?.expiration ? { expiration: options.expiration } : {}) });
      },
    };
    const { jobs, mail } = mailOver(kvMailLedger(kv));
    // 30 notices go out; 31 and 32 are held, 32 twice over (a second quote of the same contact).
    for (let n = 1; n <= 32; n += 1)
      await queueOutcomeMail(mail, quote(n), 'https://x', { now: () => START + n * 1000 });
    await queueOutcomeMail(mail, { ...quote(32), key: 'msg-32b' }, 'https://x', {
      now: () => START + 40_000,
    });
    const heldFor = async () => JSON.stringify([...values].filter(([key]) => key.startsWith('team-held:')));
    expect(await heldFor()).toContain('head32@school32.sch.uk');

    puts.length = 0;
    const erasedAt = new Date(START + 20 * MINUTE);
    expect(await eraseHeldNotices(kv, '  HEAD32@School32.sch.uk ', erasedAt)).toBe(2);
    expect(await heldFor()).not.toContain('head32@school32.sch.uk');
    // The hour's list keeps its expiry: two days after its hour ended.
    expect(puts).toEqual([
      { key: expect.stringMatching(/^team-held:/), expiration: (START + HOUR) / 1000 + 2 * 24 * 60 * 60 },
    ]);
    expect(await eraseHeldNotices(kv, 'head32@school32.sch.uk', erasedAt)).toBe(0);

    await queueTeamDigests(mail, new Date(START + HOUR + 5 * MINUTE));
    const [digest] = digests(jobs);
    expect(digest?.subject).toBe(EMAIL_COPY.schoolsTeam.digest.subject(1));
    expect(digest?.text).toContain('head31@school31.sch.uk');
    expect(digest?.text).not.toContain('head32@school32.sch.uk');
  });

  it("an erasure and a hold of the same hour in one isolate both land: neither rewrites the list over the other's change", async () => {
    const values = new Map<string, string>();
    let release = () => {};
    let reached = () => {};
    const erasureReadsTheHour = new Promise<void>((resolve) => (reached = resolve));
    let gated = false;
    // KV as the erasure meets it: its read of the busy hour answers what was stored when it asked, later.
    const kv: MailLedgerKv = {
      get: async (key) => {
        const value = values.get(key) ?? null;
        if (gated || !key.startsWith('team-held:') || value === null) return value;
        gated = true;
        reached();
        await new Promise<void>((resolve) => (release = resolve));
        return value;
      },
      put: async (key, value) => void values.set(key, value),
    };
    const { mail } = mailOver(kvMailLedger(kv));
    for (let n = 1; n <= 31; n += 1)
      await queueOutcomeMail(mail, quote(n), 'https://x', { now: () => START + n * 1000 });
    const erasing = eraseHeldNotices(kv, 'head31@school31.sch.uk', new Date(START + 50_000));
    await erasureReadsTheHour;
    // Past the hour's ceiling, a notice is held. Its way there is KV alone (the memory KV answers at
    // once, nothing signed), so every step it can take without the erasure is taken by the next task.
    const at = new Date(START + 60_000);
    const contact = 'head32@school32.sch.uk';
    const notice = { id: 'n32', subject: 'School 32', contact, at: at.toISOString(), kind: 'new' as const };
    const holding = admitNotice(mail.ledger, { team: SCHOOLS, notice }, at);
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    expect(await erasing).toBe(1);
    expect(await holding).toBe(false);
    const held = JSON.stringify([...values].filter(([key]) => key.startsWith('team-held:')));
    expect(held).toContain('head32@school32.sch.uk');
    expect(held).not.toContain('head31@school31.sch.uk');
  });

  it("each ended hour's held list is read once, however many quotes plan the digests after it", async () => {
    const kv = memoryKv();
    const reads: string[] = [];
    const counted = kvMailLedger({ get: (key) => (reads.push(key), kv.get(key)), put: kv.put });
    const { jobs, mail } = mailOver(counted);
    const later = START + 2 * HOUR;
    for (let n = 0; n < 45; n += 1)
      await queueOutcomeMail(mail, quote(n), 'https://x', { now: () => later + n * MINUTE });
    expect(toTeam(jobs)).toHaveLength(TEAM_NOTICES_PER_HOUR);
    const endedHours = reads.filter(
      (key) => /^team-held:\d+$/.test(key) && Number(key.slice(10)) * HOUR < later,
    );
    expect(endedHours.length).toBeGreaterThan(0);
    expect(endedHours).toEqual([...new Set(endedHours)]);
  });

  it("a deploy loses none of what the code of one team held: its lists, its notices without ids and its hour's count carry on", async () => {
    const kv = memoryKv();
    const hour = Math.floor(START / HOUR);
    // As the code before teams wrote them (84f475b): `team-held:<hour>`, notices without ids.
    const old = (n: number) => ({
      subject: `School ${n}`,
      contact: `head${n}@school${n}.sch.uk`,
      at: new Date(START + n).toISOString(),
      kind: 'new',
    });
    await kv.put(`team-held:${hour}`, JSON.stringify({ notices: [old(1), old(2)], more: 0 }));
    const ledger = kvMailLedger(kv);
    for (let n = 0; n < TEAM_NOTICES_PER_HOUR; n += 1)
      await ledger.reserve('team-inbox', new Date(START), TEAM_HOURLY);
    const { jobs, mail } = mailOver(ledger);
    // The hour's ceiling was used up before the deploy: the next quote is held, not sent.
    await queueOutcomeMail(mail, quote(3), 'https://x', { now: () => START + 10 * MINUTE });
    expect(toTeam(jobs)).toEqual([]);

    await queueTeamDigests(mail, new Date(START + HOUR + 5 * MINUTE));
    const [digest, ...more] = digests(jobs);
    expect(more).toEqual([]);
    for (const n of [1, 2, 3]) expect(digest?.text).toContain(`head${n}@school${n}.sch.uk`);
    expect(await heldNotices(kv, SCHOOLS).ended(new Date(START + HOUR + 5 * MINUTE))).toHaveLength(1);
    await queueTeamDigests(mail, new Date(START + HOUR + 6 * MINUTE));
    expect(digests(jobs)).toHaveLength(1);
  });
});
