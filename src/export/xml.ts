// XML encoding of export rows (docs/export.md, "XML"): well-formed XML 1.0 in UTF-8
// whatever the text holds. Pure.
import type { Column } from './columns.js';
import type { Cell } from './csv.js';
import type { RecordRow } from './records.js';

/** The `version` attribute of the root element: raised when the schema changes. */
export const XML_SCHEMA_VERSION = 1;

/**
 * Characters XML 1.0 does not allow (Char production): C0 controls but tab, LF and
 * CR; lone surrogates; U+FFFE and U+FFFF. Surrogate pairs are one code point here.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** A quick test: anything to escape or to drop (a surrogate pair too, checked in full then). */
const SUSPECT = /[&<>"\t\n\r\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** `s` without the characters XML 1.0 does not allow. */
export function xmlClean(s: string): string {
  return s.replace(NOT_XML, '');
}

const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#13;', // a literal CR would be read back as LF
};
const ATTR_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  // attribute-value normalisation would turn these into spaces
  '\t': '&#9;',
  '\n': '&#10;',
};

/** Character data: characters not allowed dropped, `&`, `<`, `>` and CR escaped. No CDATA. */
export function xmlText(s: string): string {
  if (!SUSPECT.test(s)) return s;
  return xmlClean(s).replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c] as string);
}

/** An attribute value for double quotes: as `xmlText`, with `"`, tab and LF escaped too. */
export function xmlAttr(s: string): string {
  if (!SUSPECT.test(s)) return s;
  return xmlClean(s).replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c] as string);
}

/** `<name>value</name>`, `<name null="true"/>` for a missing value. */
function element(name: string, v: Cell): string {
  if (v === null) return `<${name} null="true"/>`;
  return `<${name}>${xmlText(String(v))}</${name}>`;
}

/** The `<fields>` element of a record. */
export function recordFieldsXml(r: RecordRow): string {
  let out = '<fields>';
  for (const f of r.fields) {
    const name = xmlAttr(f.name);
    if (f.list) {
      out += `<field name="${name}" list="true">`;
      for (const v of f.values) out += element('value', v);
      out += '</field>';
    } else {
      const v = f.values[0] ?? null;
      out +=
        v === null
          ? `<field name="${name}" null="true"/>`
          : `<field name="${name}">${xmlText(v)}</field>`;
    }
  }
  return `${out}</fields>`;
}

/**
 * The whole document, a line at a time: the declaration, the root element
 * `<focuscrawl-export what="…" version="1">`, one `<row>` per row with one element per
 * column (named as the column; `extra` adds elements after them), and the end tag.
 */
export async function* xmlLines<R>(
  what: string,
  columns: readonly Column<R>[],
  rows: AsyncIterable<R>,
  extra?: (row: R) => string,
): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<focuscrawl-export what="${xmlAttr(what)}" version="${XML_SCHEMA_VERSION}">\n`;
  for await (const r of rows) {
    let line = '<row>';
    for (const c of columns) line += element(c.name, c.value(r));
    if (extra) line += extra(r);
    yield `${line}</row>\n`;
  }
  yield '</focuscrawl-export>\n';
}
