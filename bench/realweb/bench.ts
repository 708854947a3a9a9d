// The benchmark: serves the sites, then for each topic runs every configuration one
// after another from the portal home page, each with the same budget of fetches, and
// reads its figures from the server's log.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CliKind,
  type Config,
  crawlArgs,
  optionalFlags,
  prepareModels,
  runCli,
  type StoreStats,
  storeStats,
} from './focuscrawl.js';
import { figures, type RunFigures } from './metrics.js';
import { referenceCrawl } from './reference.js';
import { type LogEntry, startServer } from './server.js';
import { availableSites, PORTAL_HOST, siteById } from './sites.js';
import { labelsOf, TOPICS, type TopicDef, topicById, topicFile, topicPath } from './topics.js';

export interface BenchOptions {
  /** Sites to serve (ids); every installed one by default. */
  sites?: string[];
  topics: string[];
  configs: Config[];
  budget: number;
  cli: CliKind;
  /** Also count the outcomes each focuscrawl store recorded (one `export` per run). */
  storeStats?: boolean;
  keepStores?: boolean;
  /** Stop a focuscrawl run after this long without a request (default IDLE_MS). */
  idleMs?: number;
  /** Write each run's requests, in arrival order, to `DIR/<topic>.<config>.tsv`. */
  traceDir?: string;
  log?: (line: string) => void;
}

export interface RunResult {
  config: string;
  figures: RunFigures;
  wallMs: number;
  /** stopped: at the budget; idle: after IDLE_MS without a request (nothing left to fetch here). */
  exit?: { code: number | null; signal: string | null; stopped: boolean; idle: boolean };
  store?: StoreStats;
  error?: string;
}

export interface TopicResult {
  id: string;
  name: string;
  site: string;
  language: string;
  rule: string;
  labelled: number;
  keywords: Record<string, number>;
  examples?: { positive: string[]; negative: string[] };
  runs: RunResult[];
}

export interface BenchResult {
  budget: number;
  sites: string[];
  date: string;
  topics: TopicResult[];
}

/** `n` items spread evenly over `xs` (first included). */
function spread<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

/** Training examples: 5 labelled pages of the topic (spread over its contents order), 10 labelled pages of topics on other sites. */
export function examples(
  topic: TopicDef,
  siteIds: readonly string[],
): { positive: string[]; negative: string[] } {
  const positive = spread([...labelsOf(topic).files.values()], 5);
  const others = TOPICS.filter((t) => t.site !== topic.site && siteIds.includes(t.site));
  const bySite = new Map<string, TopicDef>();
  for (const t of others) if (!bySite.has(t.site)) bySite.set(t.site, t);
  const pools = [...bySite.values()].map((t) => spread([...labelsOf(t).files.values()], 10));
  const negative: string[] = [];
  for (let i = 0; negative.length < 10 && pools.some((p) => p.length > 0); i++) {
    const u = pools[i % pools.length]!.shift();
    if (u) negative.push(u);
  }
  return { positive, negative };
}

/** One line per counted request: its number, host, path, status and R when it served a labelled page. */
function writeTrace(
  dir: string,
  topic: string,
  config: string,
  log: readonly LogEntry[],
  labelled: ReadonlySet<string>,
  budget: number,
) {
  mkdirSync(dir, { recursive: true });
  const lines = log
    .filter((e) => e.counted)
    .slice(0, budget)
    .map(
      (e, i) =>
        `${i + 1}\t${e.host}\t${e.path}\t${e.status}\t${e.status === 200 && e.file && labelled.has(e.file) ? 'R' : ''}`,
    );
  writeFileSync(join(dir, `${topic}.${config}.tsv`), `${lines.join('\n')}\n`);
}

export async function runBench(o: BenchOptions): Promise<BenchResult> {
  const log = o.log ?? ((s: string) => process.stderr.write(`${s}\n`));
  const sites = availableSites(o.sites);
  const siteIds = sites.map((s) => s.id);
  const topics = o.topics.map(topicById);
  for (const t of topics) {
    if (!siteIds.includes(t.site)) throw new Error(`topic ${t.id}: site ${t.site} is not served`);
  }
  const extra = await optionalFlags(o.cli);
  const web = await startServer(sites);
  const hosts = new Set([PORTAL_HOST, ...sites.map((s) => s.host)]);
  const seed = `http://${PORTAL_HOST}/`;
  const work = mkdtempSync(join(tmpdir(), 'realweb-'));
  const result: BenchResult = {
    budget: o.budget,
    sites: siteIds,
    date: new Date().toISOString(),
    topics: [],
  };
  log(`realweb: ${sites.length} sites on 127.0.0.1:${web.port}, work dir ${work}`);
  if (extra.length > 0) log(`  every focuscrawl run also gets ${extra.join(' ')}`);
  try {
    for (const t of topics) {
      const file = topicFile(t.id);
      const labels = labelsOf(t);
      if (labels.missing.length > 0)
        log(`  ${t.id}: ${labels.missing.length} labelled URLs not served`);
      const labelled = new Set(labels.files.keys());
      const tr: TopicResult = {
        id: t.id,
        name: file.name,
        site: t.site,
        language: file.language,
        rule: t.rule,
        labelled: labelled.size,
        keywords: file.keywords,
        runs: [],
      };
      result.topics.push(tr);
      log(`${t.id} (${file.name}): ${labelled.size} labelled pages`);
      const dir = join(work, t.id);
      mkdirSync(dir, { recursive: true });
      let models: { learned: string; model: string } | undefined;
      for (const c of o.configs) {
        web.reset();
        const t0 = performance.now();
        const run: RunResult = {
          config: c.name,
          figures: figures([], labelled, o.budget),
          wallMs: 0,
        };
        try {
          if (c.reference) {
            await referenceCrawl({
              kind: c.reference,
              seed,
              port: web.port,
              hosts,
              keywords: Object.keys(file.keywords),
              budget: o.budget,
            });
          } else {
            let args = c.args;
            if (args.some((a) => a === '@learned' || a === '@model')) {
              if (!models) {
                tr.examples = examples(t, siteIds);
                models = await prepareModels(
                  o.cli,
                  web,
                  dir,
                  topicPath(t.id),
                  tr.examples.positive,
                  tr.examples.negative,
                );
                web.reset();
              }
              const m = models;
              args = args.map((a) => (a === '@learned' ? m.learned : a === '@model' ? m.model : a));
            }
            const store = join(dir, `store-${c.name}`);
            const spec = {
              cli: o.cli,
              store,
              topic: topicPath(t.id),
              seed,
              budget: o.budget,
              args,
              extra,
            };
            const r = await runCli(o.cli, crawlArgs(web, spec), web, o.budget, o.idleMs);
            run.exit = { code: r.code, signal: r.signal, stopped: r.stopped, idle: r.idle };
            if (!r.stopped && !r.idle && r.code !== 0)
              run.error = r.stderr.trim().split('\n').slice(-5).join(' | ');
            if (o.storeStats) run.store = await storeStats(o.cli, store, hosts);
            if (!o.keepStores) rmSync(store, { recursive: true, force: true });
          }
        } catch (e) {
          run.error = String((e as Error)?.message ?? e);
        }
        run.wallMs = Math.round(performance.now() - t0);
        run.figures = figures(web.log, labelled, o.budget, siteById(t.site).host);
        if (o.traceDir) writeTrace(o.traceDir, t.id, c.name, web.log, labelled, o.budget);
        tr.runs.push(run);
        const f = run.figures;
        log(
          `  ${c.name.padEnd(14)} ${String(f.fetches).padStart(5)} fetches in ${(run.wallMs / 1000).toFixed(1)} s` +
            `  50%: ${f.to50 ?? '—'} (${f.ownTo50 ?? '—'} own)  90%: ${f.to90 ?? '—'}  h@100 ${f.harvest100.toFixed(2)}` +
            `  h@500 ${f.harvest500.toFixed(2)}  reached ${f.reached}/${f.labelled}` +
            (f.maxGapMs > 2000 ? `  longest pause ${(f.maxGapMs / 1000).toFixed(1)} s` : '') +
            (run.exit?.idle ? '  (idle: stopped)' : '') +
            (run.store ? `  store ${run.store.outcomes} (${run.store.external} external)` : '') +
            (run.error ? `  ERROR ${run.error}` : ''),
        );
      }
    }
  } finally {
    await web.close();
    if (!o.keepStores) rmSync(work, { recursive: true, force: true });
  }
  return result;
}
