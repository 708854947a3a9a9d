// The kill loop shared by the crawl and the watch of the SIGKILL bench (bench/kill.ts):
// start the same command, kill it with SIGKILL at the moment a schedule says, and
// after each kill read the store, check its invariants, that nothing was lost, that no
// page the store held finished was requested again, and run `focuscrawl check`.
import { type CrawlChild, type LogEvent, sleep, spawnCli } from '../test/crawl/resume-helpers.js';
import { checkProblems, runCheck } from './kill-check.js';
import {
  invariants,
  isFinal,
  noneTwice,
  nothingLost,
  readSnapshot,
  requestUrl,
  type StoreSnapshot,
} from './kill-store.js';

/** Where in a run a kill falls. */
export type KillPhase = 'startup' | 'crawl' | 'revisits' | 'final' | 'none';

/** One planned kill: its phase and, by phase, what it waits for. */
export interface Kill {
  phase: KillPhase;
  /** startup: ms after the spawn; the others: ms after the event waited for. */
  afterMs: number;
  /** crawl: the share (0 … 1) of the reference's fetches the store must hold first. */
  share?: number;
}

export interface KillRecord {
  kill: Kill;
  /** False when the run ended by itself before its moment came. */
  killed: boolean;
  /** The run's life, ms from spawn to exit. */
  ms: number;
  /** Fetch outcomes in the store after it. */
  fetched: number;
  /** Visits recorded after it. */
  visits: number;
  /** URLs the store held in processing (claimed) when killed. */
  processing: number;
  leftovers: number;
  problems: string[];
  /** The run's summary (`end` event), when it ended by itself. */
  end: LogEvent | undefined;
  /**
   * Pages its summary counts over the store's (`fetchedTotal` against the responses
   * recorded): pages reached through a redirect that the store dropped, their URL
   * finished by an earlier run. 0 for a run that did not end by itself.
   */
  overcounted: number;
}

export interface LoopContext {
  command: 'crawl' | 'watch';
  args: readonly string[];
  dir: string;
  /** The test web's request log. */
  requests: readonly { host: string; path: string }[];
  /** `focuscrawl check` in a child process (else the same code in this one). */
  checkCli: boolean;
  /** Fetch outcomes of the crawl never killed, and its page events (scale the `crawl` kills' shares). */
  referenceFetched: number;
  referencePageEvents: number;
  log: (line: string) => void;
}

export interface LoopState {
  prev: StoreSnapshot | null;
  /** Index in the request log where the next run starts. */
  logAt: number;
  /** Page requests so far, by URL. */
  requestCounts: Map<string, number>;
  /** Page URLs requested so far. */
  requested: Set<string>;
  /** Redirect hops to pages an earlier run finished, requested again (`noneTwice`). */
  hopsAgain: Set<string>;
  /** Page requests made again after a kill (their fetch died with the process). */
  refetched: number;
  problems: string[];
}

/** Waits for the moment `kill` names in `c`'s run; false when the run ended first. */
async function moment(c: CrawlChild, kill: Kill, fetchedBefore: number, ctx: LoopContext) {
  const exited = c.exited.then(() => false);
  const wait = async (pred: (e: LogEvent) => boolean): Promise<boolean> => {
    const got = await Promise.race([
      c.waitFor(pred, 600_000).then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    if (got) await Promise.race([sleep(kill.afterMs), exited]);
    return got;
  };
  switch (kill.phase) {
    case 'startup':
      return Promise.race([sleep(kill.afterMs).then(() => true), exited]);
    case 'crawl': {
      // Page events (redirects have none) of the reference, scaled to what the store holds.
      const events = ctx.referencePageEvents / Math.max(1, ctx.referenceFetched);
      const target = Math.ceil(((kill.share ?? 0) * ctx.referenceFetched - fetchedBefore) * events);
      let pages = 0;
      return wait((e) => e.event === 'page' && ++pages >= Math.max(1, target));
    }
    case 'revisits':
      return wait((e) => e.event === 'revisit');
    case 'final':
      return wait((e) => e.event === 'end');
    case 'none':
      return exited;
  }
}

/** Runs the command once, killed as `kill` says, then checks the store. */
export async function killOnce(ctx: LoopContext, st: LoopState, kill: Kill): Promise<KillRecord> {
  const fetchedBefore = st.prev?.history.length ?? 0;
  const c = spawnCli(ctx.command, ctx.args);
  const now = await moment(c, kill, fetchedBefore, ctx);
  if (now) c.child.kill('SIGKILL');
  const exit = await c.exited;
  const ms = Date.now() - c.spawnedAt;
  // Requests the dead process sent may still be on their way to the test web.
  await sleep(100);
  const killed = exit.signal === 'SIGKILL';
  const problems: string[] = [];
  if (!killed && exit.code !== 0) {
    problems.push(`the run exited ${exit.code ?? exit.signal}: ${c.stderr().slice(-400)}`);
  }
  const s = await readSnapshot(ctx.dir);
  let leftovers = 0;
  if (s !== null) {
    problems.push(...invariants(s));
    if (st.prev !== null) problems.push(...nothingLost(st.prev, s));
    const run = ctx.requests.slice(st.logAt);
    countRefetched(run, st, s);
    if (ctx.command === 'crawl') {
      const twice = noneTwice(run, st.prev, s);
      problems.push(...twice.problems);
      for (const url of twice.hops) st.hopsAgain.add(url);
    } else problems.push(...visitsRequested(st.requestCounts, s));
    const check = checkProblems(await runCheck(ctx.dir, ctx.checkCli), !killed);
    problems.push(...check.problems);
    leftovers = check.leftovers;
  } else if (st.prev !== null) {
    problems.push('the store disappeared');
  }
  st.logAt = ctx.requests.length;
  if (s !== null) st.prev = s;
  st.problems.push(...problems);
  const end = killed ? undefined : c.events.find((e) => e.event === 'end');
  const r: KillRecord = {
    kill,
    killed,
    ms,
    fetched: s?.history.length ?? 0,
    visits: s?.visits.length ?? 0,
    processing: s?.counts.processing ?? 0,
    leftovers,
    problems,
    end,
    overcounted:
      end === undefined || s === null
        ? 0
        : Number(end['fetchedTotal']) - (s.counts.complete + s.counts.discard + s.counts.error),
  };
  ctx.log(
    `${kill.phase.padEnd(8)} ${killed ? 'killed' : 'ended '} after ${ms} ms: ${r.fetched} fetched, ` +
      `${r.visits} visits, ${r.processing} processing, ${leftovers} leftovers` +
      (problems.length > 0 ? `; PROBLEMS: ${problems.slice(0, 5).join('; ')}` : ''),
  );
  return r;
}

/** Counts this run's page requests that an earlier run made too (its fetch died with it). */
function countRefetched(
  run: readonly { host: string; path: string }[],
  st: LoopState,
  s: StoreSnapshot,
): void {
  const now = new Set<string>();
  for (const r of run) {
    const url = requestUrl(r);
    if (s.states.has(url)) now.add(url);
  }
  for (const url of now) {
    if (st.requested.has(url) && !isFinal(st.prev?.states.get(url))) st.refetched++;
    st.requested.add(url);
  }
  for (const r of run) {
    const url = requestUrl(r);
    st.requestCounts.set(url, (st.requestCounts.get(url) ?? 0) + 1);
  }
}

/** No visit recorded twice: a page's answered visits are at most its requests after the first fetch. */
function visitsRequested(counts: ReadonlyMap<string, number>, s: StoreSnapshot): string[] {
  const out: string[] = [];
  for (const [url, r] of s.revisits) {
    const requests = counts.get(url) ?? 0;
    if (r.visits > requests - 1) {
      out.push(
        `${url}: ${r.visits} visits recorded from ${requests} requests (the first fetch one)`,
      );
    }
  }
  return out;
}

/** A fresh loop state. */
export function loopState(): LoopState {
  return {
    prev: null,
    logAt: 0,
    requestCounts: new Map(),
    requested: new Set(),
    hopsAgain: new Set(),
    refetched: 0,
    problems: [],
  };
}
