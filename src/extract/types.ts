/** Rules as loaded (validated and compiled) and what extraction returns. */
import type { compile } from 'css-select';
import type { AnyNode, Element } from 'domhandler';

/** A compiled CSS selector (css-select). */
export type CompiledSelector = ReturnType<typeof compile<AnyNode, Element>>;

/** How a field's text is read as a value; see docs/extract.md "Types". */
export type FieldType = 'string' | 'number' | 'date' | 'url' | 'money';

/** The text `between` and `regex` search: the page's text, its HTML source, or its URL. */
export type Over = 'text' | 'html' | 'url';

export interface BetweenSource {
  kind: 'between';
  start: string;
  end: string;
  includeMarkers: boolean;
  /** `all` cuts every start…end pair, in order. */
  occurrence: 'first' | 'all';
  over: 'text' | 'html';
}

export interface CssSource {
  kind: 'css';
  selector: string;
  query: CompiledSelector;
  /** Read this attribute of the matched elements instead of their text. */
  attr: string | undefined;
  /** Read the matched elements' inner HTML (as written in the page) instead of their text. */
  html: boolean;
}

export interface RegexSource {
  kind: 'regex';
  /** Compiled with the `g` flag added. */
  re: RegExp;
  /** The one named group whose capture is the value. */
  group: string;
  over: Over;
}

export interface MetaSource {
  kind: 'meta';
  /** As written in the rule; matched without regard to ASCII case. */
  name: string;
}

export interface JsonLdSource {
  kind: 'jsonld';
  /** The rule's dotted path, split at the dots. */
  path: string[];
  /** Only objects of this `@type` (searched at any depth); otherwise every top-level object. */
  type: string | undefined;
}

export type FieldSource = BetweenSource | CssSource | RegexSource | MetaSource | JsonLdSource;

export interface FieldRule {
  name: string;
  source: FieldSource;
  required: boolean;
  multiple: boolean;
  type: FieldType;
  trim: boolean;
  /** For `money`: the ISO 4217 code when the text names no currency. */
  currency: string | undefined;
}

export interface RuleSet {
  name: string;
  /** A page belongs to the rule set when one of these matches its URL… */
  urls: RegExp[];
  /** …or one of these its path and query (`matchTarget`): URL patterns, compiled. */
  patterns: RegExp[];
  /** In the order of the rule file. */
  fields: FieldRule[];
}

export interface Rules {
  /** The file name the rules were read from (as given), used in messages. */
  file: string;
  version: 1;
  ruleSets: RuleSet[];
}

/** A page to extract from: its URL and its decoded HTML. */
export interface ExtractInput {
  url: string;
  html: string;
}

export interface FieldValue {
  /** The value, typed and normalised (docs/extract.md "Types"). */
  value: string;
  /** The text the value was read from (after `trim`). */
  raw: string;
  /** 0, 1, 2 … in page order among the field's values. */
  position: number;
}

export interface FieldResult {
  name: string;
  required: boolean;
  /** Empty when the field has no value; at most one unless the field is `multiple`. */
  values: FieldValue[];
  /** Why the field has no value, in words (present exactly when `values` is empty). */
  reason?: string;
  /** For a `multiple` field: why some of the texts found were not taken as values. */
  skipped?: string[];
}

export interface RuleSetResult {
  ruleSet: string;
  fields: FieldResult[];
  /** Names of the required fields with no value. */
  missingRequired: string[];
  /** Every required field has a value. */
  complete: boolean;
}

export interface PageExtraction {
  url: string;
  /** One result per rule set whose `urls` match the page's URL, in the file's order. */
  matched: RuleSetResult[];
  /** `no rule set matched the URL` when `matched` is empty. */
  reason?: string;
}
