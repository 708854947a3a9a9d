// Run specs of `compare`: `name:key=value,key=value` or a bare strategy name, turned
// into crawl options. Values pass through to `crawl()`, whose own validation says
// what is wrong with them (`validateRunOptions`). Pure.
import { type CrawlOptionsInput, crawlOptionsSchema } from '../crawl/index.js';
import { InvalidOptionError } from '../errors/index.js';

/** One crawl of a comparison. */
export interface RunSpec {
  /** The run's name: its store is `<out-dir>/<name>/`. */
  name: string;
  /** The spec as written. */
  spec: string;
  /** Crawl options the spec sets (over the options shared by every run). */
  options: Record<string, unknown>;
}

/** Options every run shares, set by the comparison itself; a spec may not set them. */
export const SHARED_OPTIONS: readonly string[] = ['store', 'topic', 'seeds', 'maxPages', 'signal'];
/** Names that would collide with the comparison's own files. */
const RESERVED_NAMES = new Set(['compare.html', 'compare.json']);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const bad = (spec: string, why: string) =>
  new InvalidOptionError(`run spec ${JSON.stringify(spec)}: ${why}`);

/** `max-depth` → `maxDepth`. */
const camel = (s: string) => s.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `0.2` → 0.2, `true` → true, anything else stays a string. */
export function specValue(raw: string): string | number | boolean {
  if (/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw)) return Number(raw);
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return raw;
}

type Unwrappable = { unwrap?: () => unknown; shape?: Record<string, unknown> };

/** Keys of the nested option objects of the crawl (e.g. `strategyOptions.width`), by key. */
function nestedKeys(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [parent, schema] of Object.entries(crawlOptionsSchema.shape)) {
    let s = schema as Unwrappable;
    for (let i = 0; i < 4 && s.shape === undefined && typeof s.unwrap === 'function'; i++) {
      s = s.unwrap() as Unwrappable;
    }
    if (s.shape === undefined) continue;
    for (const key of Object.keys(s.shape)) if (!out.has(key)) out.set(key, parent);
  }
  return out;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): boolean {
  let o = target;
  for (const k of path.slice(0, -1)) {
    const next = o[k];
    if (next === undefined) o[k] = {};
    else if (next === null || typeof next !== 'object') return false;
    o = o[k] as Record<string, unknown>;
  }
  const last = path.at(-1) as string;
  if (last in o) return false;
  o[last] = value;
  return true;
}

/**
 * Parses a run spec: `bfs` (a strategy name, also the run's name) or
 * `name:key=value,key=value`. Keys are crawl options (`strategy`, `model`,
 * `threshold`, `max-depth` or `maxDepth`, …), a nested option by its own name
 * (`width` for `strategyOptions.width`) or a dotted path (`fetcher.concurrency`).
 * Values that look like numbers or booleans become them.
 */
export function parseRunSpec(spec: string): RunSpec {
  const text = spec.trim();
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  if (!NAME.test(name) || RESERVED_NAMES.has(name)) {
    throw bad(
      spec,
      `the name ${JSON.stringify(name)} must be 1–64 letters, digits, ".", "_" or "-" (it names the run's store folder)`,
    );
  }
  if (colon < 0) return { name, spec: text, options: { strategy: name } };
  const body = text.slice(colon + 1);
  if (body.trim() === '') throw bad(spec, 'no options after the ":" (write name:key=value,…)');
  const options: Record<string, unknown> = {};
  const nested = nestedKeys();
  for (const part of body.split(',')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? '' : part.slice(0, eq).trim();
    const raw = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (key === '' || raw === '') throw bad(spec, `"${part.trim()}" is not key=value`);
    let path = key.split('.').map(camel);
    const top = path[0] as string;
    if (SHARED_OPTIONS.includes(top)) {
      throw bad(spec, `"${key}" is the same for every run; set it on the command line`);
    }
    if (path.length === 1 && !(top in crawlOptionsSchema.shape)) {
      const parent = nested.get(top);
      if (parent !== undefined) path = [parent, top];
    }
    if (!setPath(options, path, specValue(raw))) throw bad(spec, `"${key}" is given twice`);
  }
  return { name, spec: text, options };
}

const isPlain = (x: unknown): x is Record<string, unknown> =>
  x !== null &&
  typeof x === 'object' &&
  !Array.isArray(x) &&
  Object.getPrototypeOf(x) === Object.prototype;

/** `over` merged into `base`, plain objects merged key by key. */
export function mergeOptions(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlain(b) && isPlain(v) ? mergeOptions(b, v) : v;
  }
  return out;
}

/** The crawl options of one run: shared options, then the spec's, then its store and budget. */
export function runOptions(
  shared: Omit<CrawlOptionsInput, 'store' | 'maxPages'>,
  run: RunSpec,
  store: string,
  maxPages: number,
): CrawlOptionsInput {
  const merged = mergeOptions(shared as Record<string, unknown>, run.options);
  return { ...merged, store, maxPages } as CrawlOptionsInput;
}

/**
 * Checks a run's crawl options with the crawl's own schema, so that a bad spec is
 * refused before any crawl starts; the error names the run spec and the option.
 */
export function validateRunOptions(run: RunSpec, options: CrawlOptionsInput): void {
  const r = crawlOptionsSchema.safeParse(options);
  if (r.success) return;
  const problems = r.error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : '(options)';
    return `${field}: ${i.message}`;
  });
  throw new InvalidOptionError(
    `run spec ${JSON.stringify(run.spec)}: invalid crawl options: ${problems.join('; ')}`,
    { cause: r.error },
  );
}
