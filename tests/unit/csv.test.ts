/** The export's CSV (scripts/launch-kit/csv.ts): RFC 4180 quoting, and no cell a spreadsheet runs as a formula. */
import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from '#scripts/launch-kit/csv.ts';

// [value, cell]
const CELLS: [string, string][] = [
  ['parent@example.org', 'parent@example.org'],
  ['', ''],
  ['Use Podling; General Waitlist', 'Use Podling; General Waitlist'],
  // RFC 4180: commas, quotes, CR and LF need quotes; quotes inside are doubled.
  ['a, b', '"a, b"'],
  ['say "hi"', '"say ""hi"""'],
  ['two\nlines', '"two\nlines"'],
  ['carriage\rreturn', '"carriage\rreturn"'],
  // Formula injection: = + - @ tab CR at the start get an apostrophe (then quoting as usual).
  ['=1+1', "'=1+1"],
  ['+44 20 7946 0000', "'+44 20 7946 0000"],
  ['-2+3', "'-2+3"],
  ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
  ['\tindented', "'\tindented"],
  ['\r=1', `"'\r=1"`],
  ['=HYPERLINK("http://x.example","click")', `"'=HYPERLINK(""http://x.example"",""click"")"`],
  // Only the start counts.
  ['a=b', 'a=b'],
  ['x-y@example.org', 'x-y@example.org'],
];

describe('CSV cells', () => {
  it.each(CELLS)('%j → %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('rows are comma-separated and end with CRLF', () => {
    expect(csvRow(['a', 'b, c', '=d'])).toBe(`a,"b, c",'=d\r\n`);
    expect(csvRow([])).toBe('\r\n');
  });
});
