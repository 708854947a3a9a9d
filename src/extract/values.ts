/** A field's text → its typed, normalised value (docs/extract.md "Types"). */
import { parseDate } from './date.js';
import { parseMoney } from './money.js';
import { parseNumber } from './number.js';
import type { FieldType } from './types.js';

export interface ValueContext {
  /** What `url` values resolve against: the page's `<base href>`, else its URL. */
  baseUrl?: string;
  /** For `money`: the ISO 4217 code when the text names no currency. */
  currency?: string;
}

/** The value, or why the text is not one. */
export type Typed = { value: string } | { reason: string };

/** Quotes a text for a reason, shortened past 60 characters. */
export function quote(text: string): string {
  const t = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return JSON.stringify(t);
}

/**
 * Trim and collapse whitespace: runs of spaces and tabs become one space, runs that hold
 * a line break one line break; none at either end.
 */
export function collapseWhitespace(text: string): string {
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
}

function url(text: string, base: string | undefined): Typed {
  const t = text.trim();
  if (/^\s*javascript:/i.test(t)) return { reason: `value ${quote(text)} is not a URL` };
  try {
    return { value: new URL(t, base).href };
  } catch {
    return { reason: `value ${quote(text)} is not a URL` };
  }
}

/**
 * `text` read as `type`: `string` as is; `number` the first number, a plain decimal
 * (`1,234.5` → `1234.5`, `1.5万` → `15000`); `date` the first date, ISO 8601; `url`
 * resolved against `ctx.baseUrl`; `money` the first amount or range, `CNY 15000-25000`
 * (see parseMoney).
 */
export function typeValue(type: FieldType, text: string, ctx: ValueContext = {}): Typed {
  switch (type) {
    case 'string':
      return { value: text };
    case 'number': {
      const v = parseNumber(text);
      return v === undefined ? { reason: `value ${quote(text)} is not a number` } : { value: v };
    }
    case 'date': {
      const v = parseDate(text);
      return v === undefined ? { reason: `value ${quote(text)} is not a date` } : { value: v };
    }
    case 'url':
      return url(text, ctx.baseUrl);
    case 'money': {
      const v = parseMoney(text, ctx.currency);
      return v === undefined
        ? { reason: `value ${quote(text)} is not an amount of money` }
        : { value: v };
    }
  }
}
