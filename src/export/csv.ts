// CSV (RFC 4180) and JSON Lines encoding of export rows. Pure.

/** A value of an exported field. */
export type Cell = string | number | boolean | null;

/** A value of a JSON Lines record: a cell, or an array or object of them (records' `fields`). */
export type Json = Cell | readonly Json[] | { readonly [key: string]: Json };

/** CSV records end with CRLF, as RFC 4180 says; line breaks inside a quoted field are kept as they are. */
export const CSV_EOL = '\r\n';

/** The UTF-8 byte-order mark, which makes Excel read a CSV file as UTF-8. */
export const BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field: null is empty; a string containing a comma, a double quote, CR or
 * LF is enclosed in double quotes with its double quotes doubled.
 */
export function csvField(v: Cell): string {
  if (v === null) return '';
  const s = String(v);
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV record, CRLF included. */
export function csvRecord(cells: readonly Cell[]): string {
  return cells.map(csvField).join(',') + CSV_EOL;
}

const LINE_SEPARATORS = /[\u0085\u2028\u2029]/g;

/**
 * One JSON Lines record, LF included. U+0085, U+2028 and U+2029 are escaped
 * (`\u2028`), so that readers splitting on every Unicode line break (Python's
 * `str.splitlines`) still see one record per line.
 */
export function jsonRecord(obj: Readonly<Record<string, Json>>): string {
  const json = JSON.stringify(obj).replace(
    LINE_SEPARATORS,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `${json}\n`;
}
