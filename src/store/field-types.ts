/**
 * Types of extracted fields (`ExtractedFields`, docs/extract.md): the values a
 * rule set pulled out of a page, kept with the page. Re-exported by `types.ts`.
 */

/** One value of a field extracted from a page (docs/extract.md). */
export interface FieldValue {
  /** The rule set that extracted it. Non-empty. */
  ruleSet: string;
  /** The field's name. Non-empty. */
  field: string;
  /** 0, 1, … for the values of a field with several; 0 for a single value. */
  position: number;
  /**
   * The value as text; null when the rule set matched the page but the field got
   * nothing (so fill rates can be counted).
   */
  value: string | null;
}

/** A stored field value and the page it belongs to (`fields`). */
export interface FieldRecord extends FieldValue {
  /** The page's URL (the final one of a page reached through redirects). */
  url: string;
}

/** The new fields of one stored page (`replaceFields`). */
export interface PageFields {
  /** A known URL whose page is stored (complete or discard). */
  url: string;
  /** Every field value of the page, all rule sets: they replace the old ones. May be empty. */
  fields: readonly FieldValue[];
}

/** Which field rows `fields` returns. */
export interface FieldsOptions {
  /** Only this page's (an absolute http(s) URL). @default every page's */
  url?: string;
}

/** How well one rule set filled its fields (`fieldStats`). */
export interface FieldStats {
  ruleSet: string;
  /** Pages with at least one row of the rule set (a null value counts: the rule set matched). */
  pages: number;
  /** The rule set's fields, sorted by name. */
  fields: {
    field: string;
    /** Pages where the field has a non-null value (0 … `pages`). */
    filled: number;
  }[];
}
