// A crawl's settings in layers: the command line, `FOCUSCRAWL_*` environment
// variables, a settings file (`--config FILE`, JSON or YAML, keys named as the flags)
// and the settings the store recorded at its last run. Each value remembers where it
// came from, so that an error about it names the flag and its source (file and line,
// variable), and a resume can say which settings changed.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { CliUsageError, isFocusCrawlError } from '../errors/index.js';
import type { FlagSpec, Parsed } from './args.js';
import { nearest } from './near.js';

export type FlagValue = string | boolean | string[];

/** Flag values and, for each, where it came from (`command line`, `FOCUSCRAWL_X`, `f.yaml line 3`, `the store`). */
export interface Layer {
  values: Record<string, FlagValue>;
  from: Record<string, string>;
}

/** Flags whose value is a path: relative paths in a settings file are taken from its folder. */
export const PATH_FLAGS: ReadonlySet<string> = new Set([
  'store',
  'topic',
  'seeds',
  'model-file',
  'site-model',
  'extract',
  'log-file',
  'ca-file',
]);

/** Values that are not paths although their flag takes paths. */
function isPathValue(flag: string, v: string): boolean {
  if (!PATH_FLAGS.has(flag)) return false;
  if (flag === 'site-model' && v === 'learn') return false;
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(v);
}

/** `v` with its paths made absolute from `base`. */
export function absolutePaths(flag: string, v: FlagValue, base: string): FlagValue {
  if (typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((x) => (isPathValue(flag, x) ? resolve(base, x) : x));
  return isPathValue(flag, v) && !isAbsolute(v) ? resolve(base, v) : v;
}

/** `FOCUSCRAWL_MAX_PAGES` for `max-pages`. */
export function envName(flag: string): string {
  return `FOCUSCRAWL_${flag.toUpperCase().replace(/-/g, '_')}`;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off', '']);

/**
 * The `FOCUSCRAWL_*` variables of `env` that name flags of `spec` (`FOCUSCRAWL_CONFIG`
 * excepted: it names the settings file). A repeatable flag's variable holds its values
 * separated by white space; a switch's holds 1/true/yes/on or 0/false/no/off.
 * An unknown `FOCUSCRAWL_*` variable is refused, naming the nearest one.
 */
export function envLayer(env: NodeJS.ProcessEnv, spec: FlagSpec, cmd: string): Layer {
  const byName = new Map(Object.keys(spec).map((f) => [envName(f), f]));
  const layer: Layer = { values: {}, from: {} };
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith('FOCUSCRAWL_') || raw === undefined || name === 'FOCUSCRAWL_CONFIG') {
      continue;
    }
    const flag = byName.get(name);
    if (flag === undefined || flag === 'help') {
      // Variables of other commands' flags are theirs, not mistakes.
      continue;
    }
    const s = spec[flag];
    if (s === undefined) continue;
    let value: FlagValue;
    if (s.type === 'boolean') {
      const t = raw.trim().toLowerCase();
      if (TRUE.has(t)) value = true;
      else if (FALSE.has(t)) value = false;
      else {
        throw new CliUsageError(
          `focuscrawl ${cmd}: ${name} must be 1, true, yes, on, 0, false, no or off (it sets --${flag}), got "${raw}"`,
        );
      }
    } else if (s.multiple) value = raw.split(/\s+/).filter((x) => x !== '');
    else value = raw;
    layer.values[flag] = value;
    layer.from[flag] = name;
  }
  return layer;
}

/** The line of a node of the settings file. */
function lineOf(node: Node | null | undefined, lines: LineCounter): number {
  const at = node?.range?.[0];
  return at === undefined ? 1 : lines.linePos(at).line;
}

/** A scalar's value as a flag's text. */
function scalarText(node: unknown): string | undefined {
  if (!isScalar(node)) return undefined;
  const v = node.value;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return undefined;
}

/**
 * The settings file `file` (JSON or YAML: `max-pages: 3000`, `seeds: [...]`), its keys
 * checked against `spec` and its values against each flag's kind; errors name the file,
 * the line and the key. Relative paths are taken from the file's folder.
 */
export function configLayer(file: string, spec: FlagSpec, cmd: string): Layer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message;
    throw new CliUsageError(`focuscrawl ${cmd}: --config ${file}: cannot read it (${why})`, {
      cause: e,
    });
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const bad = doc.errors[0];
  if (bad !== undefined) {
    const line = lines.linePos(bad.pos[0]).line;
    throw new CliUsageError(
      `focuscrawl ${cmd}: ${file} line ${line}: not valid JSON or YAML (${bad.message.split('\n')[0]})`,
    );
  }
  const layer: Layer = { values: {}, from: {} };
  if (doc.contents === null) return layer;
  if (!isMap(doc.contents)) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: ${file} line ${lineOf(doc.contents as Node, lines)}: expected keys named as the flags (max-pages: 3000), not a list or a value`,
    );
  }
  const base = dirname(resolve(file));
  const where = (n: Node | null | undefined) => `${file} line ${lineOf(n, lines)}`;
  const known = Object.keys(spec).filter((f) => f !== 'help' && f !== 'config');
  for (const pair of doc.contents.items) {
    const keyNode = pair.key as Node | null;
    const key = scalarText(keyNode)?.replace(/^--/, '');
    if (key === undefined) {
      throw new CliUsageError(`focuscrawl ${cmd}: ${where(keyNode)}: a key must be a flag's name`);
    }
    const s = key === 'help' || key === 'config' ? undefined : spec[key];
    if (s === undefined) {
      const near = nearest(key, known);
      throw new CliUsageError(
        `focuscrawl ${cmd}: ${where(keyNode)}: unknown key "${key}"${near === undefined ? '' : ` (did you mean ${near}?)`}`,
      );
    }
    const node = pair.value as Node | null;
    const at = where(node ?? keyNode);
    let value: FlagValue;
    if (s.type === 'boolean') {
      if (!isScalar(node) || typeof node.value !== 'boolean') {
        throw new CliUsageError(`focuscrawl ${cmd}: ${at}: ${key} is a switch: give true or false`);
      }
      value = node.value;
    } else if (isSeq(node)) {
      if (!s.multiple) {
        throw new CliUsageError(`focuscrawl ${cmd}: ${at}: ${key} takes one value, not a list`);
      }
      value = node.items.map((item) => {
        const t = scalarText(item);
        if (t === undefined) {
          throw new CliUsageError(
            `focuscrawl ${cmd}: ${where(item as Node)}: ${key}: each item must be a text or a number`,
          );
        }
        return t;
      });
    } else {
      const t = scalarText(node);
      if (t === undefined) {
        throw new CliUsageError(
          `focuscrawl ${cmd}: ${at}: ${key} must be a text or a number${s.multiple ? ' (or a list of them)' : ''}`,
        );
      }
      value = s.multiple ? [t] : t;
    }
    layer.values[key] = absolutePaths(key, value, base);
    layer.from[key] = where(keyNode);
  }
  return layer;
}

/** The layers merged, the first one given winning. */
export function mergeLayers(...layers: Layer[]): Layer {
  const out: Layer = { values: {}, from: {} };
  for (const layer of [...layers].reverse()) {
    Object.assign(out.values, layer.values);
    Object.assign(out.from, layer.from);
  }
  return out;
}

/** The command line's values as a layer (switches not given are left out). */
export function commandLineLayer(p: Parsed): Layer {
  const layer: Layer = { values: {}, from: {} };
  for (const [k, v] of Object.entries(p.values)) {
    if (v === undefined || v === false) continue;
    layer.values[k] = Array.isArray(v) ? v.map(String) : (v as string | boolean);
    layer.from[k] = 'command line';
  }
  return layer;
}

/** `--flag value`, as a user would type it (a switch alone; a repeatable flag once per value). */
export function flagText(flag: string, v: FlagValue): string {
  if (v === true) return `--${flag}`;
  if (v === false) return `(no --${flag})`;
  const q = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : JSON.stringify(s));
  if (Array.isArray(v)) return v.map((x) => `--${flag} ${q(x)}`).join(' ');
  return `--${flag} ${q(v)}`;
}

/**
 * Runs `build` on the merged values; a usage error naming a flag set elsewhere than
 * on the command line says where it was set.
 */
export function withSources<T>(layer: Layer, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (!isFocusCrawlError(e) || e.code !== 'FC_ERR_CLI_USAGE') throw e;
    const named = [...e.message.matchAll(/--([a-z0-9][a-z0-9-]*)/g)].map((m) => m[1] as string);
    const sources = [...new Set(named)]
      .map((f) => [f, layer.from[f]] as const)
      .filter(([, from]) => from !== undefined && from !== 'command line')
      .map(([f, from]) => `--${f} from ${from}`);
    if (sources.length === 0) throw e;
    throw new CliUsageError(`${e.message} (${sources.join('; ')})`, { cause: e });
  }
}
