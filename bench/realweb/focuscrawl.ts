// focuscrawl runs: the CLI in a child process (the built one, or the sources through
// tsx), crawling from the portal with the fetcher pointed at the local server. The
// budget is counted at the server: the crawl is stopped (SIGTERM, its graceful stop)
// at the budget-th request; --max-pages is set far above it so that outcomes the server
// never sees (links to unserved hosts failing under --no-dns) do not end a run early.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { STRATEGY_NAMES } from '../../src/frontier/index.js';
import type { RealWebServer } from './server.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** How to start the CLI: `dist` (bin/focuscrawl.js, after `npm run build`) or `src` (through tsx). */
export type CliKind = 'dist' | 'src';
const cliArgs = (kind: CliKind) =>
  kind === 'dist'
    ? [join(ROOT, 'bin', 'focuscrawl.js')]
    : ['--import', 'tsx', join(ROOT, 'bench', 'realweb', 'cli-src.ts')];

/**
 * A crawl the server has not heard from for this long is stopped: it has nothing left to
 * fetch here (e.g. only URLs of unserved hosts remain, which a crawler may hold back and
 * retry for minutes before giving them up).
 */
export const IDLE_MS = 30_000;

/**
 * Flags of every run: speed and locality only (local server, no DNS, nothing stored
 * that the figures do not need) and a per-host delay of 20 ms: runs take seconds, and
 * as with the default 1 s a page's links are in before its host's next fetch. At
 * delay 0 that is a race, and the order varied from run to run (one topic: 30 to 66
 * fetches to 50%).
 */
export const COMMON_FLAGS = [
  '--delay-ms',
  '20',
  '--no-dns',
  '--no-rank',
  '--store-bodies',
  'none',
  '--quiet',
];

export interface CliResult {
  code: number | null;
  signal: string | null;
  stderr: string;
  stdout: string;
  /** The run was stopped because the server counted the budget. */
  stopped: boolean;
  /** The run was stopped because the server had no request for `idleMs`. */
  idle: boolean;
  ms: number;
}

export function runCli(
  kind: CliKind,
  args: string[],
  web?: RealWebServer,
  budget?: number,
  idleMs = IDLE_MS,
  timeoutMs = 15 * 60_000,
): Promise<CliResult> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...cliArgs(kind), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-20_000);
  });
  let stopped = false;
  let idle = false;
  let killed = false;
  const kill = () => {
    if (!killed) {
      killed = true;
      child.kill('SIGTERM');
    }
  };
  let watchdog: NodeJS.Timeout | undefined;
  if (web && budget !== undefined) {
    web.onFetch = (n) => {
      if (n >= budget && !killed) {
        stopped = true;
        kill();
      }
    };
    watchdog = setInterval(() => {
      if (!killed && performance.now() - Math.max(web.lastAt, t0) > idleMs) {
        idle = true;
        kill();
      }
    }, 500);
  }
  const timer = setTimeout(() => {
    stderr += `\n[realweb] timed out after ${timeoutMs} ms\n`;
    kill();
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  }, timeoutMs);
  return new Promise((res, rej) => {
    child.on('error', rej);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(watchdog);
      if (web) web.onFetch = undefined;
      res({ code, signal, stderr, stdout, stopped, idle, ms: Math.round(performance.now() - t0) });
    });
  });
}

/**
 * Flags added to every focuscrawl run beyond the configuration's: none. The crawls run
 * with the defaults users run; unserved hosts fail as unresolvable under --no-dns and
 * their URLs are given up at once when nothing else is left.
 */
export async function optionalFlags(_kind: CliKind): Promise<string[]> {
  return [];
}

export interface CrawlSpec {
  cli: CliKind;
  store: string;
  topic: string;
  seed: string;
  budget: number;
  args: string[];
  /** From optionalFlags(). */
  extra: string[];
}

export function crawlArgs(web: RealWebServer, s: CrawlSpec): string[] {
  return [
    'crawl',
    '--store',
    s.store,
    // a configuration's own --topic (the learned one) replaces the topic file
    ...(s.args.includes('--topic') ? [] : ['--topic', s.topic]),
    '--seeds',
    s.seed,
    '--max-pages',
    String(s.budget * 10),
    '--resolve',
    web.resolveArg,
    ...COMMON_FLAGS,
    ...s.extra,
    ...s.args,
  ];
}

export interface StoreStats {
  /** Fetch outcomes the store holds, and those on hosts the server does not serve. */
  outcomes: number;
  external: number;
  states: Record<string, number>;
}

/** Outcomes recorded by the crawl (export --what history), to compare with what the server saw. */
export async function storeStats(
  kind: CliKind,
  store: string,
  served: ReadonlySet<string>,
): Promise<StoreStats> {
  const r = await runCli(kind, [
    'export',
    '--store',
    store,
    '--what',
    'history',
    '--format',
    'jsonl',
  ]);
  const stats: StoreStats = { outcomes: 0, external: 0, states: {} };
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const h = JSON.parse(line) as { url: string; state: string };
    stats.outcomes++;
    stats.states[h.state] = (stats.states[h.state] ?? 0) + 1;
    if (!served.has(new URL(h.url).hostname)) stats.external++;
  }
  return stats;
}

/** `topic learn` (for --model tfidf) and `train` (for --model bayes) from example URLs on the server. */
export async function prepareModels(
  kind: CliKind,
  web: RealWebServer,
  dir: string,
  topic: string,
  positive: string[],
  negative: string[],
): Promise<{ learned: string; model: string; log: string }> {
  const pos = join(dir, 'positive.txt');
  const neg = join(dir, 'negative.txt');
  writeFileSync(pos, `${positive.join('\n')}\n`);
  writeFileSync(neg, `${negative.join('\n')}\n`);
  const fetcher = ['--resolve', web.resolveArg, '--no-dns', '--delay-ms', '0'];
  const learned = join(dir, 'learned-topic.json');
  const model = join(dir, 'bayes-model.json');
  const a = await runCli(kind, [
    'topic',
    'learn',
    '--positive',
    pos,
    '--negative',
    neg,
    '--expert',
    topic,
    '--out',
    learned,
    ...fetcher,
  ]);
  if (a.code !== 0) throw new Error(`topic learn failed (${a.code}): ${a.stderr}`);
  const b = await runCli(kind, [
    'train',
    '--positive',
    pos,
    '--negative',
    neg,
    '--out',
    model,
    ...fetcher,
  ]);
  if (b.code !== 0) throw new Error(`train failed (${b.code}): ${b.stderr}`);
  return { learned, model, log: `${a.stdout}${a.stderr}\n${b.stdout}${b.stderr}` };
}

export interface Config {
  name: string;
  /** Reference crawler, or focuscrawl flags (`@learned`: the learned topic, `@model`: the Bayes model). */
  reference?: 'bfs' | 'keyword';
  args: string[];
}

// Every strategy but `bayes`, which needs a model file (the `bayes` preset gives it one).
const STRATEGIES = STRATEGY_NAMES.filter((s) => s !== 'bayes');
const PRESETS: Record<string, Omit<Config, 'name'>> = {
  default: { args: [] },
  ...Object.fromEntries(STRATEGIES.map((s) => [s, { args: ['--strategy', s] }])),
  tfidf: { args: ['--model', 'tfidf', '--topic', '@learned'] },
  bayes: { args: ['--model', 'bayes', '--model-file', '@model'] },
  'ref-bfs': { reference: 'bfs', args: [] },
  'ref-keyword': { reference: 'keyword', args: [] },
};
export const DEFAULT_CONFIGS = Object.keys(PRESETS).join(';');
export const REFERENCE = 'ref-keyword';

/**
 * `name` (a preset: default, a strategy, tfidf, bayes, ref-bfs, ref-keyword),
 * `name:--flag value --flag2 ...` or `name:flag=value,flag2` (→ --flag value --flag2),
 * separated by `;`.
 */
export function parseConfigs(spec: string): Config[] {
  return spec
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const colon = item.indexOf(':');
      const name = colon < 0 ? item : item.slice(0, colon).trim();
      if (colon < 0) {
        const p = PRESETS[name];
        if (!p)
          throw new Error(
            `unknown configuration ${name} (presets: ${Object.keys(PRESETS).join(', ')})`,
          );
        return { name, ...p };
      }
      const rest = item.slice(colon + 1).trim();
      const args = rest.startsWith('-')
        ? (rest.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((a) => a.replace(/^(["'])(.*)\1$/, '$2'))
        : rest
            .split(',')
            .filter(Boolean)
            .flatMap((kv) => {
              const eq = kv.indexOf('=');
              return eq < 0 ? [`--${kv}`] : [`--${kv.slice(0, eq)}`, kv.slice(eq + 1)];
            });
      return { name, args };
    });
}
