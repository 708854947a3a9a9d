// The comparison of bench/export.ts: how far focuscrawl's export and Crawlee's of the
// same page records agree, record by record, and how their formats differ.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

/**
 * RFC 4180 CSV (CRLF or LF line ends) as rows of fields; a leading BOM is dropped.
 * @param {string} text
 * @returns {string[][]}
 */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  const t = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let i = 0; i < t.length; i++) {
    const ch = t[i];
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (t[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && t[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/**
 * The records of a CSV text, keyed by its header.
 * @param {string} text
 * @returns {Record<string, unknown>[]}
 */
function csvRecords(text) {
  const [header = [], ...rows] = parseCsv(text);
  return rows.map((r) => Object.fromEntries(header.map((h, k) => [h, r[k]])));
}

const pct = (n, of) => `${((100 * n) / Math.max(of, 1)).toFixed(1)}%`;

/**
 * How far the records of focuscrawl (`ours`) and of Crawlee agree: rows, URLs in
 * both, records equal in every field, and the fields that differ most.
 * @param {Record<string, unknown>[]} ours
 * @param {Record<string, unknown>[]} theirs
 */
function agreement(ours, theirs) {
  const byUrl = new Map(theirs.map((r) => [r.url, r]));
  let urls = 0;
  let equal = 0;
  const differ = new Map();
  for (const r of ours) {
    const t = byUrl.get(r.url);
    if (t === undefined) continue;
    urls++;
    if (isDeepStrictEqual(r, t)) {
      equal++;
      continue;
    }
    for (const k of new Set([...Object.keys(r), ...Object.keys(t)])) {
      if (!isDeepStrictEqual(r[k], t[k])) differ.set(k, (differ.get(k) ?? 0) + 1);
    }
  }
  const most = [...differ].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return (
    `rows ${ours.length} and ${theirs.length}, URLs in both ${urls} (${pct(urls, ours.length)}), ` +
    `records equal in every field ${equal} (${pct(equal, ours.length)})` +
    (most.length > 0 ? ` (differing: ${most.map(([k, n]) => `${k} ${n}`).join(', ')})` : '')
  );
}

/**
 * How the files `ours` (focuscrawl's) and `theirs` (Crawlee's) agree, and their formats.
 * @param {'json' | 'csv'} format
 * @param {string} ours
 * @param {string} theirs
 * @returns {string}
 */
export function compare(format, ours, theirs) {
  const [a, b] = [readFileSync(ours, 'utf8'), readFileSync(theirs, 'utf8')];
  if (format === 'csv') {
    const ends = (t) => (t.includes('\r\n') ? 'CRLF' : 'LF');
    const records = agreement(csvRecords(a), csvRecords(b));
    return `csv: ${records}; line ends ${ends(a)} and ${ends(b)}`;
  }
  const mine = a.split('\n').filter((l) => l !== '');
  const records = agreement(
    mine.map((l) => JSON.parse(l)),
    JSON.parse(b),
  );
  const lines = b.split('\n').length;
  return `json: ${records}; JSON Lines (${mine.length} lines) and one array (${lines} lines)`;
}
