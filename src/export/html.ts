// HTML encoding of export rows (docs/export.md, "HTML"): one self-contained page
// with a table, sortable by a click on a header through a small inline script, and
// readable without it. Nothing is fetched: a Content-Security-Policy allows the
// inline style and this script only. Every value is escaped. Pure.
import { createHash } from 'node:crypto';
import type { Column, ColumnType } from './columns.js';
import type { Cell } from './csv.js';
import type { RecordRow } from './records.js';
import { xmlClean } from './xml.js';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value: characters XML does not allow dropped (controls, lone surrogates), markup escaped. */
export function htmlEscape(s: string): string {
  return xmlClean(s).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/** Values longer than this go in a scrolling box. */
const LONG = 300;

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em}
table{border-collapse:collapse}
th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;text-align:left;max-width:40em;overflow-wrap:anywhere}
thead th{position:sticky;top:0;background:#eef}
th button{font:inherit;font-weight:bold;border:0;background:none;padding:0;cursor:pointer}
th[aria-sort=ascending] button::after{content:" \\25B2"}
th[aria-sort=descending] button::after{content:" \\25BC"}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.null::after{content:"\\2014";color:#aaa}
tbody tr:nth-child(even){background:#f7f7fb}
td ul{margin:0;padding-left:1.2em}
.long{max-height:9em;overflow:auto;white-space:pre-wrap}
`;

/**
 * Sorts by a column on a click of its header (again: the other way). A column sorts
 * as numbers when each of its non-empty cells is a number, else as text; empty
 * cells go last. A cell's key is its `data-v`, else its text.
 */
const SCRIPT = `
(() => {
  const table = document.getElementById('rows');
  const body = table.tBodies[0];
  const heads = Array.from(table.tHead.rows[0].cells);
  const collator = new Intl.Collator(undefined, { numeric: true });
  heads.forEach((th, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.append(...th.childNodes);
    th.append(b);
    b.addEventListener('click', () => {
      const rows = Array.from(body.rows, (tr) => {
        const td = tr.cells[i];
        return { tr, k: td ? (td.dataset.v ?? td.textContent) : '' };
      });
      const numeric = rows.every((r) => r.k === '' || Number.isFinite(Number(r.k)));
      const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      rows.sort((a, b) => {
        if (a.k === '' || b.k === '') return (a.k === '') - (b.k === '');
        return dir * (numeric ? Number(a.k) - Number(b.k) : collator.compare(a.k, b.k));
      });
      for (const h of heads) h.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
      const f = document.createDocumentFragment();
      for (const r of rows) f.append(r.tr);
      body.append(f);
    });
  });
})();
`;

const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');

const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'`;

const NUMERIC: ReadonlySet<ColumnType> = new Set(['integer', 'real']);

function cell(type: ColumnType, v: Cell): string {
  if (v === null) return '<td class="null"></td>';
  const s = String(v);
  if (NUMERIC.has(type)) return `<td class="n">${htmlEscape(s)}</td>`;
  const text = htmlEscape(s);
  if (type === 'url' && /^https?:\/\//i.test(s)) {
    return `<td><a href="${text}" rel="nofollow noopener noreferrer">${text}</a></td>`;
  }
  return s.length > LONG ? `<td><div class="long">${text}</div></td>` : `<td>${text}</td>`;
}

/** A record's list field as a list (sorted on its values joined). */
export function listCell(values: readonly (string | null)[], joined: string): string {
  const items = values.map((v) => `<li>${v === null ? '' : htmlEscape(v)}</li>`).join('');
  return `<td data-v="${htmlEscape(joined)}"><ul>${items}</ul></td>`;
}

export interface HtmlOptions<R> {
  what: string;
  /** What the export is of (the store's directory), in the title. */
  source?: string | undefined;
  /** Renders some cells itself (a record's list fields); undefined: the default. */
  cell?: (column: Column<R>, row: R) => string | undefined;
}

/** The page, a piece at a time: head, the header row, one `<tr>` per row, the end. */
export async function* htmlLines<R>(
  columns: readonly Column<R>[],
  rows: AsyncIterable<R>,
  o: HtmlOptions<R>,
): AsyncGenerator<string> {
  const title = `focuscrawl export: ${o.what}${o.source === undefined ? '' : ` of ${o.source}`}`;
  yield `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="focuscrawl">
<title>${htmlEscape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${htmlEscape(title)}</h1>
<table id="rows">
<thead><tr>${columns.map((c) => `<th scope="col">${htmlEscape(c.name)}</th>`).join('')}</tr></thead>
<tbody>
`;
  let n = 0;
  for await (const r of rows) {
    n++;
    let tr = '<tr>';
    for (const c of columns) tr += o.cell?.(c, r) ?? cell(c.type, c.value(r));
    yield `${tr}</tr>\n`;
  }
  yield `</tbody>
</table>
<p>${n} ${n === 1 ? 'row' : 'rows'}. Click a column's header to sort by it.</p>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** Renders the list fields of a record (`fields.NAME` columns) as lists. */
export function recordCell(
  prefix: string,
): (column: Column<RecordRow>, row: RecordRow) => string | undefined {
  return (column, row) => {
    if (!column.name.startsWith(prefix)) return undefined;
    const name = column.name.slice(prefix.length);
    const f = row.fields.find((x) => x.name === name);
    if (f === undefined || !f.list) return undefined;
    return listCell(f.values, String(column.value(row) ?? ''));
  };
}
