/**
 * CSV as RFC 4180 writes it (CRLF between records; a field holding a comma, a double quote, CR
 * or LF is quoted, its quotes doubled), made safe to open in a spreadsheet: a cell starting with
 * `=`, `+`, `-`, `@`, a tab or a CR could run as a formula there (CSV injection, OWASP), so it
 * gets a leading apostrophe, which spreadsheets show as text.
 */

/** The characters a spreadsheet may read as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** The characters that make a field need quotes. */
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell, neutralised against formulas, then quoted when RFC 4180 requires it. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record: its cells, comma-separated, ending with CRLF. */
export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
