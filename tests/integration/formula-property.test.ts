// @vitest-environment node
/// <reference types="vite/client" />
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { openAirtableBase } from '#src/lib/airtable/client.ts';
import { WAITLIST_FIELDS } from '#src/lib/airtable/schema.ts';
import {
  normaliseEmail,
  emailLookupFormula,
  emailsLookupFormula,
  toFormulaStringLiteral,
} from '#src/lib/forms/submission.ts';
import { upsertWaitlistEntry } from '#src/lib/airtable/upsert.ts';
import { compileFormula, evaluate, parseFormula } from '#scripts/airtable-emulator/formula.ts';
import { type Emulator, useEmulator } from './support/emulator.ts';

/*
 * Property: for any typed email, the emulator's evaluation of the lookup formula the app builds
 * matches the record holding exactly that address as the storage layer stores it (trimmed,
 * lower-cased) and no other record: not a neighbouring string, not the escaped or unescaped
 * spelling of it, not a record a formula fragment in the input tries to reach.
 *
 * By design the lookup is case-insensitive and ignores surrounding spaces on the stored side
 * (spec section 5; rows typed into Airtable by hand), so a decoy that normalises to the same
 * address is a match, not a leak. The oracle is therefore "normalised Email equals normalised
 * input"; decoys that normalise to the target are kept apart so "exactly one" stays exact.
 */

const WAITLIST_FIELD_NAMES = Object.values(WAITLIST_FIELDS);

/** Pieces an attacker (or an unlucky typist) might put in an address. */
const FRAGMENTS = [
  ...["'", '"', '\\', '\\\\', "\\'", '\\"', '{', '}', '{Email}', '{Interests}', '\n', '\r', '\t', ' '],
  ...["') OR TRUE() OR ('", "' OR '1'='1", '") OR TRUE() OR ("', "' & {Email} & '", "'='", 'BLANK()'],
  ...['&', '=', '!=', ',', '(', ')', 'LOWER(', 'TRIM(', '\\n', '\\t', '%27', '&#39;', '<script>'],
  ...['a', 'Z', '@', '.', '.com', 'İ', 'ß', 'Σ', 'ﬁ', '😀', '\u00a0', '\u2028', '\u200b', '\u0000', 'ש'],
];
/** Always tried first: the classic ways out of a string literal. */
const HOSTILE_EXAMPLES = [
  "') OR TRUE() OR ('",
  "x' OR '1'='1@evil.com",
  "a\\') OR TRUE() OR ('@x.com",
  "\\' OR TRUE() OR '\\@x.com",
  '{Email}@x.com',
  "') & ({Email}) & ('",
  '") OR TRUE() OR ("',
  'line\nbreak@x.com',
  "victim@school.org' OR LOWER({Email})='victim@school.org",
  '\u{10ffff}',
  '',
  ' ',
];
const hostile = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 12 }).map((parts) => parts.join(''));

/** Anything a visitor could type, hostile or not (well-formed UTF-16: what a browser sends). */
const typedText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 40 }),
  hostile,
  fc.tuple(hostile, fc.string({ maxLength: 10 }), hostile).map(([a, b, c]) => `${a}${b}${c}`),
);
/** Any string at all, lone surrogates included (formula evaluation only). */
const anyText = fc.oneof(typedText, fc.string({ unit: 'binary', maxLength: 60 }));
/** What reaches the lookup: the storage layer refuses anything without an '@'. */
const typedEmail = fc
  .tuple(typedText, typedText)
  .map(([local, domain]) => `${local}@${domain}`)
  .filter((email) => normaliseEmail(email) !== '');

/** Records that must not be found for `target` unless they normalise to it. */
function neighbours(target: string): string[] {
  const chars = Array.from(target);
  // The last character swapped for its neighbour code point (down from U+10FFFF, the last one).
  const bump = (codePoint: number) =>
    String.fromCodePoint(codePoint < 0x10ffff ? codePoint + 1 : codePoint - 1);
  const bumped = chars.map((char, i) => (i === chars.length - 1 ? bump(char.codePointAt(0) ?? 0) : char));
  return [
    `${target}x`,
    `x${target}`,
    `${target} x`,
    `${target}\n`,
    `${target}'`,
    `'${target}`,
    `${target}\\`,
    chars.slice(0, -1).join(''),
    chars.slice(1).join(''),
    bumped.join(''),
    target.replace(/'/g, "\\'"),
    target.replace(/\\/g, '\\\\'),
    target.replace(/["'\\]/g, ''),
    target.replace(/\\(.)/g, '$1'),
    target.replace(/\n/g, '\\n'),
    toFormulaStringLiteral(target),
    toFormulaStringLiteral(target).slice(1, -1),
    `${target}' OR TRUE() OR '`,
    'victim@school.org',
    'x',
    '',
    // Same address in another case or with spaces: found by design (the oracle knows).
    target.toUpperCase(),
    `  ${target.toUpperCase()}\t`,
  ];
}

type Row = { id: string; createdTime: string; fields: Record<string, string> };

function table(target: string, decoys: string[]): { rows: Row[]; targetId: string } {
  // An empty cell is absent, as Airtable (and the emulator) store it.
  const rows = [target, ...decoys].map((email, i): Row => ({
    id: `rec${String(i).padStart(14, '0')}`,
    createdTime: '',
    fields: email === '' ? {} : { Email: email },
  }));
  return { rows, targetId: 'rec00000000000000' };
}

/** The oracle: a record is the visitor's when its Email, normalised, is the normalised input. */
const isSameAddress = (stored: string | undefined, typed: string) =>
  normaliseEmail(stored ?? '') === normaliseEmail(typed);

describe('lookup formula against the emulator formula engine (property-based)', () => {
  it('matches exactly the stored address and no decoy, for any string', () => {
    fc.assert(
      fc.property(anyText, fc.array(anyText, { maxLength: 3 }), (typed, extra) => {
        const target = normaliseEmail(typed);
        const decoys = [...neighbours(target), ...extra].filter((decoy) => !isSameAddress(decoy, typed));
        const { rows, targetId } = table(target, decoys);
        const matches = compileFormula(emailLookupFormula(typed), WAITLIST_FIELD_NAMES);
        expect(
          rows.filter((row) => matches(row)).map((row) => row.id),
          JSON.stringify(typed),
        ).toEqual([targetId]);
      }),
      { numRuns: 1_500, examples: HOSTILE_EXAMPLES.map((typed): [string, string[]] => [typed, []]) },
    );
  });

  it("the server's lookup of many addresses (one SWITCH) matches exactly theirs, whatever they hold", () => {
    fc.assert(
      fc.property(
        fc.array(anyText, { minLength: 2, maxLength: 5 }),
        fc.array(anyText, { maxLength: 3 }),
        (typed, extra) => {
          const targets = typed.map(normaliseEmail);
          const { rows } = table(targets[0] ?? '', [
            ...targets.slice(1),
            ...targets.flatMap(neighbours),
            ...extra,
          ]);
          const formula = emailsLookupFormula(typed);
          const matches = compileFormula(formula, WAITLIST_FIELD_NAMES);
          const tree = parseFormula(formula);
          for (const row of rows) {
            const mine = typed.some((one) => isSameAddress(row.fields.Email, one));
            const context = JSON.stringify({ typed, stored: row.fields.Email });
            expect(matches(row), context).toBe(mine);
            expect(Boolean(evaluate(tree, row.fields)), context).toBe(mine);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('matches a record exactly when its Email normalises to the input (case and spaces included)', () => {
    fc.assert(
      fc.property(anyText, fc.array(anyText, { maxLength: 3 }), (typed, extra) => {
        const target = normaliseEmail(typed);
        const { rows } = table(target, [...neighbours(target), ...extra, ` ${typed} `, typed]);
        const matches = compileFormula(emailLookupFormula(typed), WAITLIST_FIELD_NAMES);
        for (const row of rows) {
          expect(matches(row), JSON.stringify({ typed, stored: row.fields.Email })).toBe(
            isSameAddress(row.fields.Email, typed),
          );
        }
      }),
      { numRuns: 1_500 },
    );
  });

  it('is always a formula the emulator accepts, whatever the input', () => {
    fc.assert(
      fc.property(anyText, (typed) => {
        expect(() => compileFormula(emailLookupFormula(typed), WAITLIST_FIELD_NAMES)).not.toThrow();
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('lookup over HTTP: airtable.js select and the real upsert against the emulator', () => {
  const getEmulator = useEmulator();
  let emulator: Emulator;
  beforeEach(() => {
    emulator = getEmulator();
  });

  const config = () => ({ apiKey: emulator.apiKey, baseId: emulator.baseId, endpointUrl: emulator.url });

  /** Seeds the stored address and its decoys; returns the stored record's id. */
  function seed(typed: string): string {
    const target = normaliseEmail(typed);
    const stored = emulator.seed('Waitlist', { Email: target, Interests: ['Use Podling'] });
    for (const decoy of neighbours(target).filter((email) => !isSameAddress(email, typed))) {
      emulator.seed('Waitlist', { Email: decoy, Interests: ['General Interest'] });
    }
    return stored.id;
  }

  it('select with the built formula returns only the stored record, and the upsert updates it', async () => {
    await fc.assert(
      fc.asyncProperty(typedEmail, async (typed) => {
        emulator.reset();
        const targetId = seed(typed);
        const before = emulator.records('Waitlist');

        const base = await openAirtableBase(config(), 5_000);
        const found = await base
          .table('Waitlist')
          .select({ filterByFormula: emailLookupFormula(typed) })
          .all();
        expect(
          found.map((record) => record.id),
          JSON.stringify(typed),
        ).toEqual([targetId]);

        const upsert = upsertWaitlistEntry(
          { email: typed, interests: ['invest'] },
          { config: config(), answerBoundMs: 5_000 },
        );
        const result = await upsert;
        expect(result, JSON.stringify(typed)).toEqual({ recordId: targetId, created: false });
        // Every decoy is untouched; only the visitor's own record changed.
        const after = emulator.records('Waitlist');
        expect(after).toHaveLength(before.length);
        for (const record of after.filter((r) => r.id !== targetId)) {
          expect(record).toEqual(before.find((r) => r.id === record.id));
        }
        expect(after.find((r) => r.id === targetId)?.fields.Interests).toEqual(['Invest in Podling']);
      }),
      { numRuns: 60 },
    );
  });

  it('a hostile address with no stored record creates its own, leaving every other record alone', async () => {
    await fc.assert(
      fc.asyncProperty(typedEmail, async (typed) => {
        emulator.reset();
        const victim = emulator.seed('Waitlist', { Email: 'victim@school.org', Interests: ['Use Podling'] });
        const target = normaliseEmail(typed);
        for (const decoy of neighbours(target)) {
          if (!isSameAddress(decoy, typed) && decoy !== 'victim@school.org') {
            emulator.seed('Waitlist', { Email: decoy });
          }
        }
        const before = emulator.records('Waitlist');
        const upsert = upsertWaitlistEntry({ email: typed }, { config: config(), answerBoundMs: 5_000 });
        const result = await upsert;
        const after = emulator.records('Waitlist');
        if (target === 'victim@school.org') {
          expect(result).toEqual({ recordId: victim.id, created: false });
          return;
        }
        expect(result.created, JSON.stringify(typed)).toBe(true);
        expect(after).toHaveLength(before.length + 1);
        expect(after.find((r) => r.id === result.recordId)?.fields.Email).toBe(target);
        for (const record of before) expect(after.find((r) => r.id === record.id)).toEqual(record);
      }),
      { numRuns: 40 },
    );
  });
});
