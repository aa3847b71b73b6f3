/**
 * Writes the end of src/lib/email-look-alikes.ts, the email check's table of characters that pass
 * for ASCII, from Unicode's own data (UTS 39, https://www.unicode.org/Public/security/latest/):
 *
 *   node --import tsx scripts/tools/email-look-alikes.ts confusables.txt IdentifierStatus.txt
 *
 * Kept from confusables.txt: each non-ASCII source an address can hold after the check's other
 * rules (one code point, a letter, mark or digit, unchanged by NFD, NFKC and lower-casing) whose
 * prototype is ASCII the address alphabet allows ('օ' → 'o', 'ꓲ' → 'l', 'ꜳ' → 'aa'); and, for a
 * source outside UTS 39's identifier profile (Identifier_Status not Allowed, such as 'ɦ'), a
 * prototype of such ASCII plus combining marks, counted as its ASCII ('ɦ' → 'h' + U+0314 → 'h').
 * Prototypes are lower-cased, as stored addresses are. Run by hand on each Unicode version.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { runAsCommand } from '#scripts/command.ts';

const OUTPUT = fileURLToPath(new URL('../../src/lib/email-look-alikes.ts', import.meta.url));
/** Where the generated table starts in OUTPUT (its doc comment, as moduleText writes it). */
const TABLE_START = '/**\n * Characters that pass for ASCII in an address';
/** What an address may hold beyond letters, marks and digits (src/lib/email.ts), plus letters and digits. */
const ADDRESS_ASCII = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const LETTER_MARK_DIGIT = /^[\p{L}\p{M}\p{N}]$/u;

/** Code point ranges with Identifier_Status=Allowed. */
function allowedRanges(identifierStatus: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const line of identifierStatus.split('\n')) {
    const match = /^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;\s*Allowed\b/.exec(line);
    if (match?.[1]) ranges.push([parseInt(match[1], 16), parseInt(match[2] ?? match[1], 16)]);
  }
  return ranges;
}

/** The table: each ASCII prototype with the characters that pass for it. */
export function lookAlikeTable(confusables: string, identifierStatus: string): Map<string, string> {
  const allowed = allowedRanges(identifierStatus);
  const isAllowed = (point: number) => allowed.some(([from, to]) => point >= from && point <= to);
  const table = new Map<string, string>();
  for (const line of confusables.split('\n')) {
    const match = /^([0-9A-F]+) ;\t([0-9A-F ]+) ;\tMA\b/.exec(line);
    if (!match?.[1] || !match[2]) continue;
    const point = parseInt(match[1], 16);
    const source = String.fromCodePoint(point);
    if (point < 0x80 || !LETTER_MARK_DIGIT.test(source)) continue;
    if (source.normalize('NFD') !== source || source.normalize('NFKC') !== source) continue;
    if (source.toLowerCase() !== source) continue;
    const codes = [...match[2].matchAll(/[0-9A-F]+/g)].map(([hex]) => parseInt(hex, 16));
    const prototype = String.fromCodePoint(...codes)
      .normalize('NFD')
      .toLowerCase();
    const bare = prototype.replace(/\p{M}/gu, '');
    const ascii = ADDRESS_ASCII.test(prototype) ? prototype : !isAllowed(point) ? bare : '';
    if (!ADDRESS_ASCII.test(ascii)) continue;
    table.set(ascii, (table.get(ascii) ?? '') + source);
  }
  return new Map([...table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function moduleText(table: Map<string, string>, version: string): string {
  const entries = [...table]
    .map(([ascii, chars]) => `  ${JSON.stringify(ascii)}: ${JSON.stringify(chars)},`)
    .join('\n');
  return `/**
 * Characters that pass for ASCII in an address, by the ASCII they pass for: UTS 39's confusables
 * (${version}) that the rule above reads, written by scripts/tools/email-look-alikes.ts
 * (do not edit by hand; see that file for what is kept). Unicode data, © Unicode, Inc.,
 * https://www.unicode.org/terms_of_use.html.
 */
export const LOOK_ALIKES: Readonly<Record<string, string>> = {
${entries}
};
`;
}

export async function main(argv: string[]): Promise<number> {
  const [confusablesPath, statusPath] = argv;
  if (!confusablesPath || !statusPath) {
    console.error('Usage: email-look-alikes.ts <confusables.txt> <IdentifierStatus.txt>');
    return 2;
  }
  const confusables = readFileSync(confusablesPath, 'utf8');
  const version = /^# Version: (.+)$/m.exec(confusables)?.[1]?.trim() ?? 'unknown version';
  const table = lookAlikeTable(confusables, readFileSync(statusPath, 'utf8'));
  // The table is the end of the module: everything before it (the rule) is kept as it is.
  const current = readFileSync(OUTPUT, 'utf8');
  const start = current.indexOf(TABLE_START);
  if (start < 0) throw new Error(`${OUTPUT} has no look-alike table to replace`);
  const text = current.slice(0, start) + moduleText(table, `Unicode ${version}`);
  writeFileSync(OUTPUT, await format(text, { ...(await resolveConfig(OUTPUT)), filepath: OUTPUT }));
  console.log(
    `Wrote ${OUTPUT}: ${[...table.values()].reduce((sum, chars) => sum + [...chars].length, 0)} characters`,
  );
  return 0;
}

runAsCommand(import.meta.url, main);
