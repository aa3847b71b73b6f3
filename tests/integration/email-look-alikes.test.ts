// @vitest-environment node
/**
 * The generator of the email check's look-alike table (scripts/tools/email-look-alikes.ts), on a
 * few lines in the format of Unicode's confusables.txt and IdentifierStatus.txt.
 */
import { describe, expect, it } from 'vitest';
import { lookAlikeTable, moduleText } from '#scripts/tools/email-look-alikes.ts';

const CONFUSABLES = [
  '# Version: 17.0.0',
  '0585 ;\t006F ;\tMA\t# ( օ → o ) ARMENIAN SMALL LETTER OH → LATIN SMALL LETTER O',
  '0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A',
  '0410 ;\t0041 ;\tMA\t# ( А → A ) CYRILLIC CAPITAL LETTER A → LATIN CAPITAL LETTER A',
  'A4F2 ;\t006C ;\tMA\t# ( ꓲ → l ) LISU LETTER I → LATIN SMALL LETTER L',
  'A4EE ;\t0041 ;\tMA\t# ( ꓮ → A ) LISU LETTER A → LATIN CAPITAL LETTER A',
  '0266 ;\t0068 0314 ;\tMA\t# ( ɦ → h̔ ) LATIN SMALL LETTER H WITH HOOK',
  '0142 ;\t006C 0338 ;\tMA\t# ( ł → l̸ ) LATIN SMALL LETTER L WITH STROKE',
  'FF41 ;\t0061 ;\tMA\t# ( ａ → a ) FULLWIDTH LATIN SMALL LETTER A',
  '2010 ;\t002D ;\tMA\t#* ( ‐ → - ) HYPHEN → HYPHEN-MINUS',
  '02D0 ;\t003A ;\tMA\t# ( ː → : ) MODIFIER LETTER TRIANGULAR COLON → COLON',
  'A733 ;\t0061 0061 ;\tMA\t# ( ꜳ → aa ) LATIN SMALL LETTER AA',
  '0031 ;\t006C ;\tMA\t# ( 1 → l ) DIGIT ONE → LATIN SMALL LETTER L',
].join('\n');
const STATUS = ['0142 ; Allowed # ł', '0585 ; Allowed # օ', '0430 ; Allowed # а'].join('\n');

describe('the look-alike table generator', () => {
  it('keeps what passes for ASCII an address can hold, lower case, grouped by its ASCII', () => {
    const table = lookAlikeTable(CONFUSABLES, STATUS);
    expect(Object.fromEntries(table)).toEqual({ a: 'аꓮ', aa: 'ꜳ', h: 'ɦ', l: 'ꓲ', o: 'օ' });
  });

  it('leaves out capitals (addresses are lower-cased), compatibility forms (refused already), ASCII, what is not a letter, ASCII the address alphabet lacks, and an allowed letter with its own mark (ł)', () => {
    const chars = [...lookAlikeTable(CONFUSABLES, STATUS).values()].join('');
    for (const left of ['А', 'ａ', '‐', 'ː', '1', 'ł']) expect(chars).not.toContain(left);
  });

  it('writes a module naming its source and version', () => {
    const text = moduleText(lookAlikeTable(CONFUSABLES, STATUS), 'Unicode 17.0.0');
    expect(text).toContain('Unicode 17.0.0');
    expect(text).toContain('export const LOOK_ALIKES');
    expect(text).toContain('"a": "аꓮ",');
  });
});
