/**
 * robots.txt cache: one entry per origin, least recently used evicted beyond
 * `maxEntries`, each entry expiring after `ttlMs` (`errorTtlMs` for unreachable
 * files). Concurrent lookups of an origin share one load. Verdicts are built once
 * per entry and rule, so a cached lookup allocates nothing.
 */
import type { RobotsRuleRef, RobotsVerdict } from '../types.js';
import { decidingRule, policyFor, type RobotsPolicy } from './match.js';
import { parseRobotsTxt } from './parse.js';

/** The outcome of fetching one robots.txt. */
export type RobotsLoad =
  | { source: 'parsed'; status: number; text: string }
  | { source: 'missing'; status: number | undefined }
  | { source: 'unreachable'; status: number | undefined; error: string };

/**
 * Length of the UTF-8 byte-order mark at the start of `body`: the whole mark
 * (EF BB BF) or, as Google's parser accepts, its first one or two bytes.
 */
function bomLength(body: Buffer): number {
  if (body[0] !== 0xef) return 0;
  if (body[1] !== 0xbb) return 1;
  return body[2] === 0xbf ? 3 : 2;
}

/**
 * How a final robots.txt response is read: 2xx → parsed (as UTF-8, a leading
 * byte-order mark, whole or partial, skipped; a file cut at the byte cap loses
 * its last, partial line); 429 and 5xx → unreachable; other statuses (4xx, a
 * 3xx left unfollowed) → missing.
 */
export function loadFromResponse(status: number, body: Buffer, truncated: boolean): RobotsLoad {
  if (status >= 200 && status < 300) {
    const bom = bomLength(body);
    let text = (bom === 0 ? body : body.subarray(bom)).toString('utf8');
    if (truncated) text = text.slice(0, Math.max(0, text.lastIndexOf('\n')));
    return { source: 'parsed', status, text };
  }
  if (status === 429 || status >= 500) {
    return { source: 'unreachable', status, error: `HTTP ${status}` };
  }
  return { source: 'missing', status };
}

export interface RobotsEntry {
  readonly policy: RobotsPolicy | undefined;
  readonly expiresAt: number;
  /** Verdict per rule of `policy.rules`. */
  readonly byRule: readonly RobotsVerdict[];
  /** Verdict when no rule matches (or for every path when missing/unreachable). */
  readonly fallback: RobotsVerdict;
}

/** Builds the cache entry for a loaded robots.txt. Pure. */
export function buildEntry(
  robotsUrl: string,
  load: RobotsLoad,
  productToken: string,
  expiresAt: number,
): RobotsEntry {
  const base = {
    robotsUrl,
    source: load.source,
    status: load.status,
    error: load.source === 'unreachable' ? load.error : undefined,
    expiresAt,
  };
  if (load.source !== 'parsed') {
    const fallback: RobotsVerdict = Object.freeze({
      ...base,
      allowed: load.source === 'missing',
      group: undefined,
      rule: undefined,
      crawlDelayMs: undefined,
      sitemaps: Object.freeze([]),
    });
    return { policy: undefined, expiresAt, byRule: [], fallback };
  }
  const txt = parseRobotsTxt(load.text);
  const policy = policyFor(txt, productToken);
  const crawlDelayMs =
    policy.crawlDelaySec === undefined ? undefined : Math.round(policy.crawlDelaySec * 1000);
  const common = {
    ...base,
    group: policy.group,
    crawlDelayMs,
    sitemaps: Object.freeze(txt.sitemaps),
  };
  const byRule = policy.rules.map((r) => {
    const rule: RobotsRuleRef = Object.freeze({
      directive: r.allow ? 'allow' : 'disallow',
      pattern: r.pattern,
      line: r.line,
    });
    return Object.freeze({ ...common, allowed: r.allow, rule });
  });
  const fallback = Object.freeze({ ...common, allowed: true, rule: undefined });
  return { policy, expiresAt, byRule, fallback };
}

/** The verdict of `entry` for a path with query (`/a/b?c`). */
export function verdictFor(entry: RobotsEntry, pathAndQuery: string): RobotsVerdict {
  if (entry.policy === undefined) return entry.fallback;
  const i = decidingRule(entry.policy, pathAndQuery);
  return i < 0 ? entry.fallback : entry.byRule[i]!;
}

export interface RobotsCacheOptions {
  maxEntries: number;
  ttlMs: number;
  errorTtlMs: number;
  productToken: string;
  /** Fetches `<origin>/robots.txt`. May throw: the error reaches every waiting caller and nothing is cached. */
  load: (robotsUrl: string) => Promise<RobotsLoad>;
  now?: () => number;
}

export class RobotsCache {
  hits = 0;
  misses = 0;
  shared = 0;
  readonly #entries = new Map<string, RobotsEntry>();
  readonly #pending = new Map<string, Promise<RobotsEntry>>();
  readonly #opts: RobotsCacheOptions;
  readonly #now: () => number;

  constructor(opts: RobotsCacheOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The fresh cached entry for `origin`, or undefined. Counts a hit when found. */
  peek(origin: string): RobotsEntry | undefined {
    const entries = this.#entries;
    const e = entries.get(origin);
    if (e === undefined) return undefined;
    if (e.expiresAt <= this.#now()) {
      entries.delete(origin);
      return undefined;
    }
    // Map iteration order is insertion order: re-inserting marks it most recent.
    entries.delete(origin);
    entries.set(origin, e);
    this.hits++;
    return e;
  }

  /** The entry for `origin` (`scheme://host[:port]`), loading robots.txt when needed. */
  get(origin: string): Promise<RobotsEntry> {
    const e = this.peek(origin);
    if (e !== undefined) return Promise.resolve(e);
    const pending = this.#pending.get(origin);
    if (pending !== undefined) {
      this.shared++;
      return pending;
    }
    this.misses++;
    const p = this.#load(origin);
    this.#pending.set(origin, p);
    return p;
  }

  async #load(origin: string): Promise<RobotsEntry> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const load = await this.#opts.load(robotsUrl);
      const ttl = load.source === 'unreachable' ? this.#opts.errorTtlMs : this.#opts.ttlMs;
      const entry = buildEntry(robotsUrl, load, this.#opts.productToken, this.#now() + ttl);
      this.#set(origin, entry);
      return entry;
    } finally {
      this.#pending.delete(origin);
    }
  }

  #set(origin: string, entry: RobotsEntry): void {
    const entries = this.#entries;
    entries.delete(origin);
    entries.set(origin, entry);
    while (entries.size > this.#opts.maxEntries) {
      const oldest = entries.keys().next().value as string;
      entries.delete(oldest);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}
