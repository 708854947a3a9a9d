/**
 * The rows a store keeps of one page's extraction (the store's `fields` table,
 * docs/extract.md "In the store"): per rule set that matched the page, per field, one
 * row per value (`position` 0, 1, …), or one row with a null value when the field got
 * nothing, so that fill rates count the pages a rule set matched.
 */
import type { PageExtraction } from './types.js';

/** One row of the store's `fields` table (the store's `FieldValue`). */
export interface FieldRow {
  ruleSet: string;
  field: string;
  position: number;
  value: string | null;
}

/** The rows of `extraction`; none when no rule set matched the page. */
export function fieldRows(extraction: PageExtraction): FieldRow[] {
  const rows: FieldRow[] = [];
  for (const rs of extraction.matched) {
    for (const f of rs.fields) {
      if (f.values.length === 0) {
        rows.push({ ruleSet: rs.ruleSet, field: f.name, position: 0, value: null });
        continue;
      }
      for (const v of f.values)
        rows.push({ ruleSet: rs.ruleSet, field: f.name, position: v.position, value: v.value });
    }
  }
  return rows;
}
