// Helpers of the crawl robustness tests: the CLI in a child process (its JSON log
// read line by line), read-only snapshots of a store, and a seeded PRNG.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CrawlSummary } from '../../src/crawl/index.js';
import { StoreError } from '../../src/errors/index.js';
import { openStore, type StateCounts, URL_STATES, type UrlState } from '../../src/store/index.js';
import { seededRandom } from '../../src/util/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = join(here, '..', '..');

/** One line of `--json-log`. */
export interface LogEvent {
  event: 'page' | 'progress' | 'warning' | 'end' | 'revisit' | 'plan' | 'watchEnd';
  [key: string]: unknown;
}

export interface CrawlChild {
  child: ChildProcess;
  /** When the child was spawned (ms since the epoch). */
  spawnedAt: number;
  events: LogEvent[];
  stderr(): string;
  /** Resolves with the first event (already seen or to come) that `pred` accepts. */
  waitFor(pred: (e: LogEvent) => boolean, timeoutMs?: number): Promise<LogEvent>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `focuscrawl crawl ARGS --json-log` from the sources in a child process. */
export function spawnCrawl(args: readonly string[]): CrawlChild {
  return spawnCli('crawl', args);
}

/** Starts `focuscrawl COMMAND ARGS --json-log` from the sources in a child process. */
export function spawnCli(command: string, args: readonly string[]): CrawlChild {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(here, 'cli-child.ts'), command, ...args, '--json-log'],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const events: LogEvent[] = [];
  const waiters: { pred: (e: LogEvent) => boolean; resolve: (e: LogEvent) => void }[] = [];
  let partial = '';
  let err = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      let e: LogEvent;
      try {
        e = JSON.parse(line) as LogEvent;
      } catch {
        err += `(not JSON on stdout) ${line}\n`;
        continue;
      }
      events.push(e);
      for (let i = waiters.length - 1; i >= 0; i--) {
        const w = waiters[i];
        if (w?.pred(e)) {
          waiters.splice(i, 1);
          w.resolve(e);
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    spawnedAt: Date.now(),
    events,
    stderr: () => err,
    waitFor(pred, timeoutMs = 20_000) {
      const seen = events.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching event within ${timeoutMs} ms; stderr: ${err}`)),
          timeoutMs,
        );
        const done = (e: LogEvent) => {
          clearTimeout(timer);
          resolve(e);
        };
        waiters.push({ pred, resolve: done });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`the crawl exited before a matching event; stderr: ${err}`));
        });
      });
    },
    exited,
  };
}

export interface FinishedCrawl {
  code: number | null;
  events: LogEvent[];
  /** The summary (`end` event); the test fails when there is none. */
  end: CrawlSummary;
  stderr: string;
}

/** Waits for a crawl child to exit and returns its summary. */
export async function finished(c: CrawlChild): Promise<FinishedCrawl> {
  const { code, signal } = await c.exited;
  const end = c.events.find((e) => e.event === 'end');
  assert.ok(end, `no end event (exit ${code ?? signal}); stderr: ${c.stderr()}`);
  return { code, events: c.events, end: end as unknown as CrawlSummary, stderr: c.stderr() };
}

/** Runs a crawl to its end. */
export function runCrawl(args: readonly string[]): Promise<FinishedCrawl> {
  return finished(spawnCrawl(args));
}

/** What a store holds, read through a read-only connection. */
/** The store at `dir`, read-only; null when no store was set up there yet (a crawl killed while starting). */
export async function openIfSetUp(
  dir: string,
): Promise<Awaited<ReturnType<typeof openStore>> | null> {
  try {
    return await openStore(dir, { readonly: true });
  } catch (e) {
    if (e instanceof StoreError && /does not exist|is missing|empty database/.test(e.message)) {
      return null;
    }
    throw e;
  }
}

export interface Snapshot {
  /** URL → state, one entry per `urls` row (`rows` counts them all). */
  states: Map<string, UrlState>;
  rows: number;
  /** Fetch outcomes in the order recorded. */
  history: { url: string; state: string }[];
  counts: StateCounts;
}

/**
 * Reads the store at `dir` read-only, or returns null when no store was set up
 * there yet (a crawl killed while starting).
 */
export async function snapshot(dir: string): Promise<Snapshot | null> {
  const store = await openIfSetUp(dir);
  if (store === null) return null;
  try {
    const states = new Map<string, UrlState>();
    let rows = 0;
    for await (const u of store.urls()) {
      rows++;
      states.set(u.url, u.state);
    }
    const history: Snapshot['history'] = [];
    for await (const h of store.history()) history.push({ url: h.url, state: h.state });
    return { states, rows, history, counts: await store.counts() };
  } finally {
    await store.close();
  }
}

/**
 * The store's invariants at any moment, even right after a crash: each URL has one
 * row (so one state), each fetched URL one history row in its final state, the
 * counters agree with the rows.
 */
export function checkInvariants(s: Snapshot, label: string): void {
  assert.equal(s.rows, s.states.size, `${label}: a URL has more than one row`);
  const fetched = new Set<string>();
  for (const h of s.history) {
    assert.ok(!fetched.has(h.url), `${label}: ${h.url} is recorded twice in the history`);
    fetched.add(h.url);
    assert.equal(s.states.get(h.url), h.state, `${label}: state of ${h.url} vs its history`);
  }
  const tally = Object.fromEntries(URL_STATES.map((k) => [k, 0])) as StateCounts;
  for (const [url, state] of s.states) {
    tally[state]++;
    const final =
      state === 'complete' || state === 'discard' || state === 'error' || state === 'redirect';
    assert.equal(fetched.has(url), final, `${label}: ${url} is ${state}`);
  }
  assert.deepEqual(s.counts, tally, `${label}: counters vs rows`);
}

/** mulberry32: a small seeded PRNG, so that random kill times can be replayed. */
export const prng = seededRandom;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` every 5 ms; resolves true once it holds, false if `stop` settles first. */
export async function waitUntil(cond: () => boolean, stop: Promise<unknown>): Promise<boolean> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  while (!cond()) {
    if (stopped) return false;
    await sleep(5);
  }
  return true;
}
