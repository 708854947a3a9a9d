import { parseArgs } from 'node:util';
import { CliUsageError } from '../errors/index.js';
import { nearest } from './near.js';

export type FlagSpec = Record<
  string,
  { type: 'string' | 'boolean'; multiple?: boolean; short?: string; default?: string | boolean }
>;

export interface Parsed {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/**
 * `argv` with a value-taking flag followed by a negative number (`--max-pages -5`)
 * joined to it (`--max-pages=-5`), so that the flag's own check says what is wrong
 * with the value instead of the parser taking `-5` for a flag. Words after `--` are
 * left as they are.
 */
export function joinNegativeValues(argv: readonly string[], flags: FlagSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (next !== undefined && /^-(\d|\.\d)/.test(next) && !a.includes('=')) {
      const long = a.startsWith('--') ? flags[a.slice(2)] : undefined;
      const short = /^-[^-]$/.test(a)
        ? Object.values(flags).find((f) => f.short === a.slice(1))
        : undefined;
      if (long?.type === 'string') {
        out.push(`${a}=${next}`);
        i++;
        continue;
      }
      if (short?.type === 'string') {
        out.push(`${a}${next}`);
        i++;
        continue;
      }
    }
    out.push(a);
  }
  return out;
}

/**
 * The parser's complaint in a user's words, naming the flag: an unknown flag with the
 * nearest known one (`did you mean --store?`: a unique prefix of a flag, or one within
 * two edits), a flag without its value, a switch given a value.
 */
export function parseErrorText(command: string, e: unknown, flags: FlagSpec): string {
  const code = (e as { code?: unknown }).code;
  const msg = e instanceof Error ? e.message : String(e);
  // `'--stor'`, `'--store <value>'`, `'-o, --out <value>'`: the flag, long when it has a name.
  const quoted = /'(-[^']*)'/
    .exec(msg)?.[1]
    ?.replace(/ <value>$/, '')
    .split(', ')
    .at(-1);
  const help = `(see focuscrawl ${command} --help)`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    const name = quoted.replace(/^--?/, '');
    const near = quoted.startsWith('--') ? nearest(name, Object.keys(flags)) : undefined;
    return near === undefined
      ? `unknown flag ${quoted} ${help}`
      : `unknown flag ${quoted}: did you mean --${near}?`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    if (/argument missing/.test(msg)) return `${quoted} needs a value ${help}`;
    if (/does not take an argument/.test(msg)) return `${quoted} takes no value ${help}`;
    if (/ambiguous/.test(msg)) {
      return `${quoted} needs a value; a value beginning with a dash is given as ${quoted}=VALUE`;
    }
  }
  return msg;
}

/** Strict flag parsing: unknown flags and missing values become CliUsageError. */
export function parseFlags(command: string, argv: string[], flags: FlagSpec): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: joinNegativeValues(argv, flags),
      options: flags,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed['values'], positionals };
  } catch (e) {
    throw new CliUsageError(`focuscrawl ${command}: ${parseErrorText(command, e, flags)}`, {
      cause: e,
    });
  }
}

export function str(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function strs(p: Parsed, name: string): string[] {
  const v = p.values[name];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? [v] : [];
}

export function bool(p: Parsed, name: string): boolean {
  return p.values[name] === true;
}

/** A non-negative integer flag, with a message naming the flag when it is not one. */
export function int(p: Parsed, name: string, command: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) {
    throw new CliUsageError(
      `focuscrawl ${command}: --${name} expects a non-negative integer, got "${v}"`,
    );
  }
  return Number(v);
}

/** Sizes such as `2MiB`, `10KB`, `10240`. KB/KiB are both 1024 bytes (DESIGN 1.4's 10 KB = 10240). */
export function bytes(p: Parsed, name: string, command: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|kib|k|mb|mib|m|gb|gib|g)?$/i.exec(v.trim());
  if (!m) {
    throw new CliUsageError(
      `focuscrawl ${command}: --${name} expects a size such as 10240, 10KB or 2MiB, got "${v}"`,
    );
  }
  const unit = (m[2] ?? 'b').toLowerCase();
  const mult = unit.startsWith('k')
    ? 1024
    : unit.startsWith('m')
      ? 1024 ** 2
      : unit.startsWith('g')
        ? 1024 ** 3
        : 1;
  return Math.round(Number(m[1]) * mult);
}

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Durations such as `90s`, `15m`, `2h`, `1h30m`, `500ms` → milliseconds; undefined for a malformed one. */
export function parseDurationMs(text: string): number | undefined {
  const s = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(s)) return undefined;
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) {
    total += Number(m[1]) * (DURATION_UNITS[m[2] as string] ?? 0);
  }
  return total > 0 ? Math.round(total) : undefined;
}

/** A duration flag (`--duration 90s`), with a message naming the flag when malformed. */
export function duration(p: Parsed, name: string, command: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const ms = parseDurationMs(v);
  if (ms === undefined) {
    throw new CliUsageError(
      `focuscrawl ${command}: --${name} expects a duration such as 90s, 15m, 2h or 1h30m, got "${v}"`,
    );
  }
  return ms;
}
