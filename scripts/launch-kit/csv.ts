/**
 * CSV as RFC 4180 writes it, safe to open in a spreadsheet: a cell that could run as a formula
 * there (CSV injection, OWASP) gets a leading apostrophe, which spreadsheets show as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell, neutralised against formulas, then quoted when RFC 4180 requires it. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
