/**
 * The memory store's extracted fields (`ExtractedFields`): each page's rows, kept
 * sorted, written by `commit` (memory.ts) and `replaceFields`. The reference
 * implementation: plain scans, checked completely before anything changes.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { ExtractedFields } from './contracts.js';
import type { FieldRecord, FieldStats, FieldValue } from './field-types.js';
import type { PageRecord, UrlRecord } from './types.js';
import { checkFieldsOptions, checkPageFields } from './validate-fields.js';

/**
 * Compares strings by code point, as SQLite's BINARY collation compares their
 * UTF-8: UTF-16 units order them alike except that a surrogate (half of a code
 * point above U+FFFF) comes after every other unit.
 */
export function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

const byKey = (a: FieldValue, b: FieldValue): number =>
  byCodePoint(a.ruleSet, b.ruleSet) || byCodePoint(a.field, b.field) || a.position - b.position;

interface PageRows {
  /** The page's URL id: pages are listed in discovery order. */
  id: number;
  rows: FieldValue[];
}

export class FieldBook {
  readonly #pages = new Map<string, PageRows>();

  /** Replaces the fields of the page of `rec` (checked already). */
  write(rec: Pick<UrlRecord, 'id' | 'url'>, fields: readonly FieldValue[]): void {
    const rows = fields.map(({ ruleSet, field, position, value }) => ({
      ruleSet,
      field,
      position,
      value,
    }));
    this.#pages.set(rec.url, { id: rec.id, rows: rows.sort(byKey) });
  }

  *rows(url: string | undefined): Generator<FieldRecord> {
    const pages =
      url === undefined
        ? [...this.#pages].sort((a, b) => a[1].id - b[1].id)
        : [[url, this.#pages.get(url)] as const];
    for (const [u, p] of pages) for (const r of p?.rows ?? []) yield { url: u, ...r };
  }

  stats(): FieldStats[] {
    const sets = new Map<string, { pages: number; filled: Map<string, number> }>();
    for (const { rows } of this.#pages.values()) {
      // Per page: each rule set once, each field filled once.
      const seen = new Set<string>();
      for (const r of rows) {
        let s = sets.get(r.ruleSet);
        if (s === undefined) {
          s = { pages: 0, filled: new Map() };
          sets.set(r.ruleSet, s);
        }
        if (!seen.has(r.ruleSet)) {
          seen.add(r.ruleSet);
          s.pages++;
        }
        const key = JSON.stringify([r.ruleSet, r.field]);
        const filled = s.filled.get(r.field) ?? 0;
        if (r.value !== null && !seen.has(key)) {
          seen.add(key);
          s.filled.set(r.field, filled + 1);
        } else {
          s.filled.set(r.field, filled);
        }
      }
    }
    return [...sets]
      .sort((a, b) => byCodePoint(a[0], b[0]))
      .map(([ruleSet, s]) => ({
        ruleSet,
        pages: s.pages,
        fields: [...s.filled]
          .sort((a, b) => byCodePoint(a[0], b[0]))
          .map(([field, filled]) => ({ field, filled })),
      }));
  }
}

/** What the memory store's fields methods need of it. */
export interface MemoryFieldsContext {
  book: FieldBook;
  /** Throws `StoreError` once the store is closed. */
  open(op: string): void;
  urlOf(url: string): UrlRecord | undefined;
  pageOf(url: string): PageRecord | undefined;
}

export function memoryFieldMethods(c: MemoryFieldsContext): ExtractedFields {
  return {
    async replaceFields(items) {
      c.open('replaceFields');
      checkPageFields('replaceFields', items);
      // Every URL first: nothing is written when one is refused.
      const recs = items.map((it, i) => {
        const rec = c.urlOf(it.url);
        if (rec === undefined || c.pageOf(it.url) === undefined) {
          const is = rec === undefined ? 'not a known URL' : 'a URL without a stored page';
          throw new InvalidOptionError(`replaceFields[${i}].url: ${it.url} is ${is}`);
        }
        return rec;
      });
      items.forEach((it, i) => {
        c.book.write(recs[i] as UrlRecord, it.fields);
      });
      return new Set(recs).size;
    },
    fields(options) {
      const url = checkFieldsOptions('fields options', options);
      return (async function* () {
        c.open('fields');
        yield* c.book.rows(url);
      })();
    },
    async fieldStats() {
      c.open('fieldStats');
      return c.book.stats();
    },
  };
}
