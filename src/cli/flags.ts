// Command-line flags declared once, as a table: each flag names the option it sets,
// reads its value and carries its help text and default, so that the parser, `--help`
// and the docs' flag tables (checked by test/cli/options-declared.test.ts) follow one
// declaration.
import { CliUsageError } from '../errors/index.js';
import { bytes, duration, type FlagSpec, int, type Parsed, str, strs } from './args.js';

/** Reads a flag's value from the parsed command line; undefined when it is not given. */
export type ReadFlag = (p: Parsed, flag: string, cmd: string) => unknown;

export interface FlagDef {
  /** The flag without its dashes (`max-pages`). */
  readonly flag: string;
  /** Its value's placeholder in help (`N`, `MODE`); none: a switch. */
  readonly arg?: string;
  /**
   * The option it sets: an option's name, or a dotted path into an option object
   * (`strategyOptions.width`, `threshold.t0`).
   */
  readonly option: string;
  /**
   * Reads its value. None: the flag is read together with others by code of its own
   * (`--threshold` and its parameters).
   */
  readonly read?: ReadFlag;
  /** What it does, for `--help`. */
  readonly help: string;
  /** Its default as `--help` and the docs show it (from the option's schema); none: not shown. */
  readonly default?: string;
  /** The flag may be given several times. */
  readonly multiple?: boolean;
}

/** The `parseArgs` spec of `defs`. */
export function flagSpecOf(defs: readonly FlagDef[]): FlagSpec {
  const spec: FlagSpec = {};
  for (const d of defs) {
    spec[d.flag] = {
      type: d.arg === undefined ? 'boolean' : 'string',
      ...(d.multiple ? { multiple: true } : {}),
    };
  }
  return spec;
}

/** Column where help texts start, and the width they wrap at. */
const TEXT_AT = 31;
const WIDTH = 100;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The help lines of `defs`: `  --flag ARG   text (default X)`, wrapped. */
export function helpOf(defs: readonly FlagDef[]): string {
  const out: string[] = [];
  for (const d of defs) {
    const label = `  --${d.flag}${d.arg === undefined ? '' : ` ${d.arg}`}`;
    const text = d.default === undefined ? d.help : `${d.help} (default ${d.default})`;
    const lines = wrap(text, WIDTH - TEXT_AT);
    const pad = ' '.repeat(TEXT_AT);
    if (label.length >= TEXT_AT - 1) out.push(label, ...lines.map((l) => pad + l));
    else {
      out.push(label.padEnd(TEXT_AT) + (lines[0] ?? ''));
      for (const l of lines.slice(1)) out.push(pad + l);
    }
  }
  return out.join('\n');
}

/**
 * Sets `path` (`a.b`) of `target` to `value`. An object option a switch turned on
 * (`true`: every field at its default) becomes an object when a field of it is set, and
 * a switch does not undo the fields set before it.
 */
export function setOption(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = target;
  for (const k of keys.slice(0, -1)) {
    const next = o[k];
    if (next === undefined || next === true) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  const last = keys.at(-1) as string;
  const had = o[last];
  if (value === true && had !== null && typeof had === 'object') return;
  o[last] = value;
}

/** Sets on `target` the option of every flag of `defs` given (those with a reader). */
export function applyFlags(
  defs: readonly FlagDef[],
  p: Parsed,
  cmd: string,
  target: Record<string, unknown>,
): void {
  for (const d of defs) {
    if (d.read === undefined) continue;
    const v = d.read(p, d.flag, cmd);
    if (v !== undefined) setOption(target, d.option, v);
  }
}

// Readers.

/** A non-negative integer. */
export const whole: ReadFlag = (p, flag, cmd) => int(p, flag, cmd);

/** A positive integer. */
export const count: ReadFlag = (p, flag, cmd) => {
  const n = int(p, flag, cmd);
  if (n === 0) throw new CliUsageError(`focuscrawl ${cmd}: --${flag} must be at least 1`);
  return n;
};

/** Any finite number (the option's schema checks its range). */
export const num: ReadFlag = (p, flag, cmd) => {
  const v = str(p, flag);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) {
    throw new CliUsageError(`focuscrawl ${cmd}: --${flag} must be a number, got "${v}"`);
  }
  return n;
};

/** A number ≥ 0, or `word`. */
export const numOr =
  (word: string): ReadFlag =>
  (p, flag, cmd) => {
    const v = str(p, flag);
    if (v === undefined || v === word) return v;
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0) {
      throw new CliUsageError(
        `focuscrawl ${cmd}: --${flag} must be a number ≥ 0 or "${word}", got "${v}"`,
      );
    }
    return n;
  };

/** The text as given. */
export const text: ReadFlag = (p, flag) => str(p, flag);

/** A repeatable flag's texts; undefined when none is given. */
export const texts: ReadFlag = (p, flag) => {
  const v = strs(p, flag);
  return v.length > 0 ? v : undefined;
};

/** A size (`10KB`, `2MiB`) in bytes. */
export const size: ReadFlag = (p, flag, cmd) => bytes(p, flag, cmd);

/** A duration (`90s`, `1h30m`) in milliseconds. */
export const span: ReadFlag = (p, flag, cmd) => duration(p, flag, cmd);

/** One of `allowed`. */
export const oneOf =
  (allowed: readonly string[]): ReadFlag =>
  (p, flag, cmd) => {
    const v = str(p, flag);
    if (v !== undefined && !allowed.includes(v)) {
      throw new CliUsageError(
        `focuscrawl ${cmd}: --${flag} must be one of ${allowed.join(', ')}, got "${v}"`,
      );
    }
    return v;
  };

/** A switch: `value` when given. */
export const on =
  (value: unknown): ReadFlag =>
  (p, flag) =>
    p.values[flag] === true ? value : undefined;

/** The values of an enum option's schema (through its default or optional wrapper). */
export function enumValues(schema: unknown): readonly string[] {
  let s = schema as { options?: readonly string[]; unwrap?: () => unknown } | undefined;
  for (let i = 0; i < 4 && s !== undefined && s.options === undefined; i++) {
    s = s.unwrap?.() as typeof s;
  }
  if (s?.options === undefined) throw new Error('enumValues: not an enum schema');
  return s.options;
}

/** A size in bytes as help shows it: `2MiB`, `10KiB`, else the bytes. */
export function sizeText(n: number): string {
  if (n % 1024 ** 2 === 0) return `${n / 1024 ** 2}MiB`;
  if (n % 1024 === 0) return `${n / 1024}KiB`;
  return String(n);
}
