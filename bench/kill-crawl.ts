// `focuscrawl crawl` killed with SIGKILL at seeded random moments (bench/kill.ts and
// test/crawl/kill-resume.test.ts): a reference crawl never killed, then the same
// command into another store, killed at each moment of the schedule and run again,
// until it ends by itself; then the two stores compared, and the killed one against
// the test web's ground truth.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listPageUrls, MOVED_PAGES, type TestWeb } from '../src/testweb/index.js';
import { finished, spawnCli } from '../test/crawl/resume-helpers.js';
import { checkProblems, runCheck } from './kill-check.js';
import { type Kill, type KillPhase, type KillRecord, killOnce, loopState } from './kill-run.js';
import {
  compareFinal,
  invariants,
  noneTwice,
  outLinksKnown,
  readSnapshot,
  type StoreSnapshot,
  variantOf,
} from './kill-store.js';

export interface CrawlKillOptions {
  web: TestWeb;
  /** An empty directory for the stores and the topic file. */
  root: string;
  kills: number;
  /** `hosts`: the portal, every topical host and moved.test; `small`: one topical host and moved.test. */
  shape: 'hosts' | 'small';
  maxPages: number;
  delayMs: number;
  /** `focuscrawl check` in a child process after each kill (else in this process). */
  checkCli: boolean;
  log: (line: string) => void;
}

export interface CrawlKillResult {
  reference: { ms: number; startupMs: number; tailMs: number; snapshot: StoreSnapshot };
  final: StoreSnapshot;
  records: KillRecord[];
  /** Runs after the kills, to the end. */
  resumes: number;
  /** Wall time of the killed crawl, every run and check included. */
  ms: number;
  refetched: number;
  /** Redirect hops to pages an earlier run finished, requested again (not recorded again). */
  hopsAgain: string[];
  /** Pages the runs' summaries counted that the store dropped (`KillRecord.overcounted`). */
  overcounted: number;
  leftovers: number;
  /** Kept pages whose ground-truth out-links were checked. */
  outLinkPages: number;
  exhausted: boolean;
  problems: string[];
}

/** The kill schedule: a kill at startup first, one while ranking last, the rest by `random`. */
export function crawlSchedule(
  n: number,
  random: () => number,
  startupMs: number,
  tailMs: number,
): Kill[] {
  const middle: KillPhase[] = [];
  const finals: KillPhase[] = [];
  for (let i = 2; i < n; i++) {
    const r = random();
    if (r < 0.15) middle.push('startup');
    else if (r < 0.85) middle.push('crawl');
    else finals.push('final');
  }
  // At least one kill while fetching, whatever the draw.
  if (!middle.includes('crawl')) {
    if (middle.length > 0) middle[0] = 'crawl';
    else if (finals.length > 0) {
      finals.pop();
      middle.push('crawl');
    }
  }
  const all: KillPhase[] = ['startup', ...middle, ...finals, 'final'];
  const phases: KillPhase[] = n === 1 ? ['crawl'] : all.slice(0, n);
  const shares = phases
    .filter((p) => p === 'crawl')
    .map(() => 0.02 + 0.93 * random())
    .sort((a, b) => a - b);
  return phases.map((phase) => {
    if (phase === 'startup') return { phase, afterMs: Math.round(random() * startupMs) };
    if (phase === 'final') return { phase, afterMs: Math.round(random() * tailMs) };
    return { phase, afterMs: Math.round(random() * 100), share: shares.shift() ?? 0.5 };
  });
}

const esc = (s: string) => s.replace(/[.]/g, '\\.');

export function crawlShape(web: TestWeb, shape: CrawlKillOptions['shape']) {
  const hosts =
    shape === 'small'
      ? ['stargazer.test', 'moved.test']
      : [
          'portal.test',
          'moved.test',
          ...new Set(listPageUrls({ seed: web.seed, size: web.size }).map((u) => new URL(u).host)),
        ];
  const include = new RegExp(`^http://(?:${hosts.map(esc).join('|')})/`);
  const seeds =
    shape === 'small'
      ? ['http://stargazer.test/', 'http://moved.test/']
      : ['http://portal.test/', 'http://moved.test/'];
  return { hosts, include, seeds };
}

export async function killCrawl(
  o: CrawlKillOptions,
  random: () => number,
): Promise<CrawlKillResult> {
  const { include, seeds } = crawlShape(o.web, o.shape);
  const topic = join(o.root, 'crawl-topic.json');
  writeFileSync(topic, JSON.stringify({ keywords: { telescope: 1, grid: 1, recipe: 1 } }));
  const args = (dir: string) => [
    '--store',
    dir,
    '--topic',
    topic,
    '--seeds',
    ...seeds,
    '--scope',
    'any',
    '--include',
    include.source,
    '--threshold',
    '0',
    '--max-pages',
    String(o.maxPages),
    '--delay-ms',
    String(o.delayMs),
    '--concurrency',
    '16',
    '--per-host-concurrency',
    '2',
    '--full-text',
    'kept',
    '--resolve',
    o.web.resolve,
    '--allow-private',
  ];
  const problems: string[] = [];

  // The reference: never killed.
  const refDir = join(o.root, 'crawl-reference');
  o.web.clearLog();
  const c = spawnCli('crawl', args(refDir));
  const ref = await finished(c);
  const exitAt = Date.now();
  if (ref.code !== 0) throw new Error(`the reference crawl failed: ${ref.stderr}`);
  const firstPage = ref.events.find((e) => e.event === 'page');
  const startupMs = Date.parse(String(firstPage?.['time'])) - c.spawnedAt;
  const endEvent = ref.events.find((e) => e.event === 'end');
  const tailMs = exitAt - Date.parse(String(endEvent?.['time']));
  const reference = await readSnapshot(refDir);
  if (reference === null) throw new Error('the reference crawl left no store');
  const refProblems = [
    ...invariants(reference),
    ...noneTwice(o.web.requests, null, reference).problems,
    ...checkProblems(await runCheck(refDir, o.checkCli), true).problems,
  ];
  if (refProblems.length > 0) problems.push(...refProblems.map((p) => `reference: ${p}`));
  const refMs = exitAt - c.spawnedAt;
  o.log(
    `reference: ${reference.history.length} fetched in ${refMs} ms (first page after ${startupMs} ms, ` +
      `${tailMs} ms from the end of fetching to exit), ${JSON.stringify(reference.counts)}`,
  );

  // The same command, killed.
  const dir = join(o.root, 'crawl-killed');
  o.web.clearLog();
  const st = loopState();
  const ctx = {
    command: 'crawl' as const,
    args: args(dir),
    dir,
    requests: o.web.requests,
    checkCli: o.checkCli,
    referenceFetched: reference.history.length,
    referencePageEvents: ref.events.filter((e) => e.event === 'page').length,
    log: o.log,
  };
  const t0 = Date.now();
  const records: KillRecord[] = [];
  for (const kill of crawlSchedule(o.kills, random, startupMs, tailMs)) {
    records.push(await killOnce(ctx, st, kill));
  }
  let resumes = 0;
  const ends: KillRecord[] = [];
  for (;;) {
    resumes++;
    const r = await killOnce(ctx, st, { phase: 'none', afterMs: 0 });
    ends.push(r);
    const reason = r.end?.['stopReason'];
    if (reason === 'exhausted' || reason === 'max-pages') break;
    if (resumes >= 3) {
      problems.push(`still not ended after ${resumes} runs (${String(reason)})`);
      break;
    }
  }
  const ms = Date.now() - t0;
  problems.push(...st.problems);
  const final = st.prev;
  if (final === null) throw new Error('the killed crawl left no store');
  if (final.counts.processing > 0) {
    problems.push(`${final.counts.processing} URLs still processing after the last run`);
  }
  const exhausted = final.counts.waiting === 0 && reference.counts.waiting === 0;
  problems.push(...compareFinal(final, reference, exhausted, variantOf(o.web)));
  const links = outLinksKnown(final, o.web, (u) => include.test(u));
  problems.push(...links.problems);
  if (exhausted) {
    // Ground truth: moved.test's pages each have three old addresses that redirect.
    const redirects = [...final.states].filter(([, s]) => s === 'redirect');
    if (redirects.length !== 3 * MOVED_PAGES) {
      problems.push(`${redirects.length} redirects, the test web has ${3 * MOVED_PAGES}`);
    }
  }
  const leftovers = records.reduce((a, r) => a + r.leftovers, 0);
  return {
    reference: { ms: refMs, startupMs, tailMs, snapshot: reference },
    final,
    records,
    resumes,
    ms,
    refetched: st.refetched,
    hopsAgain: [...st.hopsAgain],
    overcounted: [...records, ...ends].reduce((a, r) => a + r.overcounted, 0),
    leftovers,
    outLinkPages: links.pages,
    exhausted,
    problems,
  };
}
