// `compare`: one crawl per run spec, each into <outDir>/<name>/ with the same topic,
// seeds and budget, then every run evaluated against the same labels and the
// comparison written to <outDir>/compare.html. A run whose store already spent its
// budget (or ran dry) is not crawled again; an unfinished one is resumed.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CrawlOptionsInput,
  type CrawlRun,
  type CrawlRunRecord,
  type CrawlSummary,
  crawl,
  META_RUNS,
} from '../crawl/index.js';
import { InvalidOptionError } from '../errors/index.js';
import type { LabelSet } from '../labels/index.js';
import { connectStore } from '../store/index.js';
import type { ComparedRun, Comparison } from './compare-types.js';
import { renderComparison } from './html.js';
import { DEFAULT_BUDGETS, normalizeBudgets } from './metrics.js';
import { parseRunSpec, type RunSpec, runOptions, validateRunOptions } from './run-spec.js';
import { evaluateStore } from './store.js';
import { writeAtomic } from './write.js';

/** The comparison's own files in its folder. */
export const COMPARE_HTML = 'compare.html';
export const COMPARE_MANIFEST = 'compare.json';

export interface CompareOptions {
  /** The folder: one store per run, `compare.json` and `compare.html`. */
  outDir: string;
  /** Crawl options every run shares (topic, seeds, fetcher, scope, threshold…). */
  shared: Omit<CrawlOptionsInput, 'store' | 'maxPages'>;
  /** The budget of every run, in fetch outcomes (`maxPages`). */
  maxPages: number;
  /** Run specs (`bfs`, `name:key=value,…`) or parsed ones. */
  runs: readonly (string | RunSpec)[];
  labels: LabelSet;
  /**
   * Budgets at which the runs are compared; those at or above `maxPages` are left
   * out (the end is always compared). @default DEFAULT_BUDGETS
   */
  budgets?: readonly number[];
  /** Aborting it stops the running crawl gracefully and starts no other. */
  signal?: AbortSignal;
  /** Each crawl as it starts, to follow its events. */
  onCrawl?: (run: CrawlRun, spec: RunSpec, index: number) => void;
  /** After each run: crawled (with its summary) or skipped. */
  onRunEnd?: (info: {
    spec: RunSpec;
    index: number;
    action: 'crawled' | 'skipped';
    summary: CrawlSummary | null;
  }) => void;
  /** The comparison's time. @default Date.now() */
  now?: number;
  /** Title of compare.html. @default `Crawl comparison: <labels topic>` */
  title?: string;
}

export interface CompareResult {
  /** Null when the comparison was stopped before every run finished. */
  comparison: Comparison | null;
  stopped: boolean;
  /** compare.html, when written. */
  report: { file: string; bytes: number } | null;
}

interface Manifest {
  version: 1;
  runs: Record<string, { spec: string; options: Record<string, unknown> }>;
}

/** JSON with sorted keys: the same options compare equal however they were written. */
function canonicalJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonicalJson).join(',')}]`;
  if (x !== null && typeof x === 'object') {
    const entries = Object.entries(x as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(x);
}

function readManifest(file: string): Manifest {
  if (!existsSync(file)) return { version: 1, runs: {} };
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
    if (m && typeof m === 'object' && m.runs && typeof m.runs === 'object') {
      return { version: 1, runs: m.runs };
    }
  } catch (cause) {
    throw new InvalidOptionError(`${file}: not a comparison manifest (invalid JSON)`, { cause });
  }
  throw new InvalidOptionError(`${file}: not a comparison manifest`);
}

/** True when the store at `dir` has spent `maxPages` or has nothing left to fetch. */
async function finished(dir: string, maxPages: number): Promise<boolean> {
  if (!existsSync(dir)) return false;
  const store = await connectStore(dir, { readonly: true });
  try {
    const stats = await store.stats({ topHosts: 0 });
    if (stats.fetched >= maxPages) return true;
    const runs = await store.getMeta<CrawlRunRecord[]>(META_RUNS);
    const last = Array.isArray(runs) ? runs.at(-1) : undefined;
    return last?.stopReason === 'exhausted';
  } finally {
    await store.close();
  }
}

/** Parses and checks every run before any crawl starts. */
function plan(o: CompareOptions): { spec: RunSpec; options: CrawlOptionsInput; dir: string }[] {
  if (o.runs.length === 0) throw new InvalidOptionError('compare: give at least one run spec');
  if (!(Number.isInteger(o.maxPages) && o.maxPages >= 1)) {
    throw new InvalidOptionError(`compare: maxPages must be a whole number ≥ 1, got ${o.maxPages}`);
  }
  const specs = o.runs.map((r) => (typeof r === 'string' ? parseRunSpec(r) : r));
  const seen = new Map<string, string>();
  for (const s of specs) {
    const other = seen.get(s.name);
    if (other !== undefined) {
      throw new InvalidOptionError(
        `run specs ${JSON.stringify(other)} and ${JSON.stringify(s.spec)} have the same name "${s.name}"`,
      );
    }
    seen.set(s.name, s.spec);
  }
  return specs.map((spec) => {
    const dir = join(o.outDir, spec.name);
    const options = runOptions(o.shared, spec, dir, o.maxPages);
    validateRunOptions(spec, options);
    return { spec, options, dir };
  });
}

/** Runs the comparison; see the module comment. */
export async function compareCrawls(o: CompareOptions): Promise<CompareResult> {
  const runs = plan(o);
  const budgets = normalizeBudgets(o.budgets ?? DEFAULT_BUDGETS).filter((b) => b < o.maxPages);
  mkdirSync(o.outDir, { recursive: true });

  // A run name already used in this folder must mean the same crawl.
  const manifestFile = join(o.outDir, COMPARE_MANIFEST);
  const manifest = readManifest(manifestFile);
  for (const { spec, dir } of runs) {
    const before = manifest.runs[spec.name];
    if (before && canonicalJson(before.options) !== canonicalJson(spec.options)) {
      throw new InvalidOptionError(
        `run "${spec.name}" in ${o.outDir} was crawled with the spec ${JSON.stringify(before.spec)}, not ${JSON.stringify(spec.spec)}: remove ${dir} or give this run another name`,
      );
    }
    manifest.runs[spec.name] = { spec: spec.spec, options: spec.options };
  }
  await writeAtomic(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);

  const actions: ('crawled' | 'skipped')[] = [];
  for (const [index, r] of runs.entries()) {
    if (o.signal?.aborted) return { comparison: null, stopped: true, report: null };
    if (await finished(r.dir, o.maxPages)) {
      actions.push('skipped');
      o.onRunEnd?.({ spec: r.spec, index, action: 'skipped', summary: null });
      continue;
    }
    const run = crawl({ ...r.options, ...(o.signal ? { signal: o.signal } : {}) });
    o.onCrawl?.(run, r.spec, index);
    const summary = await run;
    actions.push('crawled');
    o.onRunEnd?.({ spec: r.spec, index, action: 'crawled', summary });
    if (summary.stopReason === 'stopped') return { comparison: null, stopped: true, report: null };
  }

  const compared: ComparedRun[] = [];
  for (const [i, r] of runs.entries()) {
    const store = await connectStore(r.dir, { readonly: true });
    try {
      const evaluation = await evaluateStore(store, o.labels, {
        budgets: [...budgets, o.maxPages],
        limit: o.maxPages,
      });
      compared.push({
        name: r.spec.name,
        spec: r.spec.spec,
        options: r.spec.options,
        store: r.dir,
        action: actions[i] ?? 'skipped',
        evaluation,
      });
    } finally {
      await store.close();
    }
  }
  const first = compared[0]?.evaluation;
  const topic = o.shared.topic;
  const comparison: Comparison = {
    generatedAt: o.now ?? Date.now(),
    outDir: o.outDir,
    topic: typeof topic === 'string' ? topic : '(given as an object)',
    seeds: o.shared.seeds?.length ?? 0,
    labels: first?.labels ?? {
      source: o.labels.source,
      format: o.labels.format,
      topic: o.labels.topic,
      topicName: o.labels.topicName,
    },
    labelled: o.labels.relevant.size,
    maxPages: o.maxPages,
    budgets,
    runs: compared,
  };
  const name = o.labels.topicName ?? o.labels.topic;
  const title = o.title ?? (name === null ? 'Crawl comparison' : `Crawl comparison: ${name}`);
  const file = join(o.outDir, COMPARE_HTML);
  const bytes = await writeAtomic(file, renderComparison(comparison, { title }));
  return { comparison, stopped: false, report: { file, bytes } };
}
