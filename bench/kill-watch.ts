// `focuscrawl watch` killed with SIGKILL at seeded random moments (bench/kill.ts and
// test/crawl/kill-resume.test.ts): news.test (articles that change on the test web's
// running clock) watched with a budget, killed during its revisit rounds and at
// startup, run again each time, then once more to the end of its --duration. After
// every run the store keeps its invariants, loses nothing, records no visit twice
// (never more answered visits than requests) and passes `focuscrawl check`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestWeb } from '../src/testweb/index.js';
import { type Kill, type KillRecord, killOnce, loopState } from './kill-run.js';
import type { StoreSnapshot } from './kill-store.js';

export interface WatchKillOptions {
  /** A test web whose clock runs (`clockSpeed`), so that news.test changes. */
  web: TestWeb;
  root: string;
  kills: number;
  /** Each run's --duration, s (the last one runs to it). */
  durationS: number;
  /** Latest kill after the run's first revisit, ms. */
  windowMs: number;
  /** Latest kill after the spawn for a kill at startup, ms. */
  startupMs: number;
  budget: string;
  checkCli: boolean;
  log: (line: string) => void;
}

export interface WatchKillResult {
  final: StoreSnapshot;
  records: KillRecord[];
  resumes: number;
  ms: number;
  leftovers: number;
  /** Revisits still claimed once the last run ended. */
  claimedAfter: number;
  problems: string[];
}

/** A kill at startup first, then kills during revisits (one in seven at startup). */
export function watchSchedule(n: number, random: () => number, o: WatchKillOptions): Kill[] {
  const out: Kill[] = [];
  for (let i = 0; i < n; i++) {
    const startup = i === 0 || (i > 1 && random() < 1 / 7);
    out.push(
      startup
        ? { phase: 'startup', afterMs: Math.round(random() * o.startupMs) }
        : { phase: 'revisits', afterMs: Math.round(random() * o.windowMs) },
    );
  }
  return out;
}

export async function killWatch(
  o: WatchKillOptions,
  random: () => number,
): Promise<WatchKillResult> {
  const topic = join(o.root, 'watch-topic.json');
  writeFileSync(topic, JSON.stringify({ keywords: { news: 1, article: 1 } }));
  const dir = join(o.root, 'watch');
  const args = [
    '--store',
    dir,
    '--topic',
    topic,
    '--seeds',
    'http://news.test/',
    '--threshold',
    '0',
    '--scope',
    'same-host',
    '--budget',
    o.budget,
    '--duration',
    `${o.durationS}s`,
    '--plan-interval',
    '1s',
    '--delay-ms',
    '0',
    '--per-host-concurrency',
    '2',
    '--store-bodies',
    'kept',
    '--resolve',
    o.web.resolve,
    '--allow-private',
  ];
  o.web.clearLog();
  const st = loopState();
  const ctx = {
    command: 'watch' as const,
    args,
    dir,
    requests: o.web.requests,
    checkCli: o.checkCli,
    referenceFetched: 0,
    referencePageEvents: 0,
    log: o.log,
  };
  const t0 = Date.now();
  const records: KillRecord[] = [];
  for (const kill of watchSchedule(o.kills, random, o)) records.push(await killOnce(ctx, st, kill));
  // The same command once more, to the end of its --duration (killOnce checks it exits 0).
  await killOnce(ctx, st, { phase: 'none', afterMs: 0 });
  const problems = [...st.problems];
  const final = st.prev;
  if (final === null) throw new Error('the watch left no store');
  const claimedAfter = [...final.revisits.values()].filter((r) => r.claimed).length;
  if (claimedAfter > 0) problems.push(`${claimedAfter} revisits still claimed after the last run`);
  if (final.visits.length === 0) problems.push('no visit was recorded');
  return {
    final,
    records,
    resumes: 1,
    ms: Date.now() - t0,
    leftovers: records.reduce((a, r) => a + r.leftovers, 0),
    claimedAfter,
    problems,
  };
}
