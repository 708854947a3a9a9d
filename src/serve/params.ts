/**
 * Query strings and bodies checked with zod: a 400 (`FC_ERR_INVALID_OPTION`) names the
 * parameter, says what it expects and what it got (`limit: expected a whole number
 * from 1 to 500, got "-1"`). Unknown parameters are refused too (a typo otherwise
 * silently changes nothing); `token` is the guard's (auth.ts) and is left out here.
 */
import { z } from 'zod';
import { type FocusCrawlError, InvalidOptionError } from '../errors/index.js';
import { valueAt } from '../util/index.js';

const one = 'expected one value';

/** A whole number in [min, max], from its text. */
export const intParam = (min: number, max: number) => {
  const expected = `expected a whole number from ${min} to ${max}`;
  return z.string({ error: one }).transform((s, ctx) => {
    const n = Number(s.trim());
    if (!/^[+-]?\d+$/.test(s.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: expected });
      return z.NEVER;
    }
    return n;
  });
};

/** A finite number in [min, max], from its text. */
export const numParam = (min: number, max: number) => {
  const expected = `expected a number from ${min} to ${max}`;
  return z.string({ error: one }).transform((s, ctx) => {
    const n = s.trim() === '' ? Number.NaN : Number(s);
    if (!Number.isFinite(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: expected });
      return z.NEVER;
    }
    return n;
  });
};

/** One of `values`. */
export const enumParam = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` });

/** A non-empty text of at most `max` characters. */
export const textParam = (max = 2000) =>
  z
    .string({ error: one })
    .min(1, { error: 'expected a non-empty value' })
    .max(max, { error: `expected at most ${max} characters` });

/** `true`/`false` (also `1`/`0`). */
export const boolParam = () =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'expected true or false' })
    .transform((s) => s === 'true' || s === '1');

/** The zod error as one line naming the parameter (or the body's field). */
export function invalidInput(
  error: z.ZodError,
  data: unknown,
  noun: 'parameter' | 'field' = 'parameter',
): FocusCrawlError {
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const at = issue.path.map(String).join('.');
    return new InvalidOptionError(
      `${at === '' ? '' : `${at}: `}unknown ${noun}${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`,
      { cause: error },
    );
  }
  const path = issue?.path ?? [];
  const name = path.map(String).join('.') || (noun === 'field' ? 'body' : 'query');
  const value = valueAt(data, path);
  const got =
    value === undefined
      ? 'missing'
      : `got ${JSON.stringify(value)?.slice(0, 200) ?? String(value)}`;
  return new InvalidOptionError(`${name}: ${issue?.message ?? 'invalid'}, ${got}`, {
    cause: error,
  });
}

/** Checks a query string against `shape` (strict; `token` ignored). */
export function parseQuery<S extends z.ZodRawShape>(
  shape: S,
  query: unknown,
): z.output<z.ZodObject<S>> {
  const { token: _token, ...rest } = (query ?? {}) as Record<string, unknown>;
  const r = z.strictObject(shape).safeParse(rest);
  if (!r.success) throw invalidInput(r.error, rest);
  return r.data as z.output<z.ZodObject<S>>;
}

/** Checks a JSON body against `schema`; errors name the field. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) throw invalidInput(r.error, body, 'field');
  return r.data;
}
