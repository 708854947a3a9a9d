/**
 * The shape of a rule file (JSON or YAML), checked with zod. What zod cannot say
 * (exactly one source kind per field, which options go with which kind, that a regex
 * compiles and has one named group) is checked by compile.ts.
 */
import { z } from 'zod';

const marker = z.string().regex(/\S/, { message: 'expected a marker that is not blank' });

/** Cut the text between two markers. */
const betweenSchema = z.strictObject({
  /** The text that opens the value (a run of whitespace in it matches any run of whitespace). */
  start: marker,
  /** The text that closes the value: the first occurrence after the start. */
  end: marker,
  /**
   * Keep the markers in the value.
   * @default false
   */
  includeMarkers: z.boolean().default(false),
  /**
   * `first`: the first start and the first end after it. `all`: every start…end pair in
   * turn, each search going on after the previous end (implies `multiple`).
   * @default 'first'
   */
  occurrence: z.enum(['first', 'all']).default('first'),
});

/** Select elements with a CSS selector (css-select). */
const cssObjectSchema = z.strictObject({
  selector: z.string().min(1),
  /**
   * Read this attribute instead of the element's text.
   * @default undefined
   */
  attr: z.string().min(1).optional(),
  /**
   * Read the element's inner HTML, as written in the page, instead of its text.
   * @default false
   */
  html: z.boolean().default(false),
});

export const fieldSchema = z.strictObject({
  // Source kinds: exactly one per field.
  between: betweenSchema.optional(),
  /** A selector string (text of the elements), or { selector, attr?, html? }. */
  css: z
    .union([z.string().min(1), cssObjectSchema], {
      error: 'expected a selector or { "selector", "attr"?, "html"? }',
    })
    .optional(),
  /** A JavaScript regular expression with exactly one named group, `(?<name>…)`. */
  regex: z.string().min(1).optional(),
  /** Flags for `regex`, among `i`, `m`, `s`, `u`, `v` (`g` is implied). */
  flags: z.string().optional(),
  /** The `name`, `property` or `itemprop` of a `<meta>` element; its `content` is the value. */
  meta: z.string().min(1).optional(),
  /** A dotted path into the page's JSON-LD objects, e.g. `hiringOrganization.name`. */
  jsonld: z.string().min(1).optional(),
  /** With `jsonld`: take the path in the objects of this `@type` only. */
  jsonldType: z.string().min(1).optional(),
  /**
   * What `between` and `regex` search: `text` (the page's text), `html` (its source)
   * or, for `regex` only, `url` (the page's URL).
   * @default 'text'
   */
  over: z.enum(['text', 'html', 'url']).optional(),
  // Options of every field.
  /**
   * The rule set's result is incomplete when this field has no value.
   * @default false
   */
  required: z.boolean().default(false),
  /**
   * Keep every value found, in page order; otherwise the first only.
   * @default false (true when `between.occurrence` is `all`)
   */
  multiple: z.boolean().optional(),
  /**
   * How the text is read: `string`, `number`, `date`, `url` or `money`.
   * @default 'string'
   */
  type: z.enum(['string', 'number', 'date', 'url', 'money']).default('string'),
  /**
   * Trim the text and collapse its whitespace: runs of spaces to one space, runs with
   * a line break to one line break.
   * @default true
   */
  trim: z.boolean().default(true),
  /**
   * With type `money`: the ISO 4217 code (three capital letters) to use when the text
   * names no currency.
   * @default undefined
   */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { message: 'expected a three-letter ISO 4217 code such as "CNY"' })
    .optional(),
});

export const ruleSetSchema = z.strictObject({
  /** Names the rule set in results and messages; unique within the file. */
  name: z.string().min(1),
  /** A regular expression (or several) matched against the page's URL (unanchored). */
  urls: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
      error: 'expected a regular expression or a list of them',
    })
    .optional(),
  /**
   * A URL pattern of the site model's language (or several: `/viewtopic.php?t={n}`,
   * docs/site-model.md), matched against the page URL's path and query, whatever its
   * host. A rule set needs `urls` or `patterns` (or both: either takes a page).
   */
  patterns: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
      error: 'expected a URL pattern or a list of them',
    })
    .optional(),
  /** Field name → rule; at least one. */
  fields: z.record(z.string().min(1), fieldSchema),
});

export const rulesSchema = z.strictObject({
  /** The rule file format; 1 is the only one. */
  version: z.literal(1),
  ruleSets: z.array(ruleSetSchema).min(1),
});

export type FieldInput = z.output<typeof fieldSchema>;
export type RuleSetInput = z.output<typeof ruleSetSchema>;
export type RulesInput = z.output<typeof rulesSchema>;

/** The source kinds, in the order messages name them. */
export const SOURCE_KINDS = ['between', 'css', 'regex', 'meta', 'jsonld'] as const;
