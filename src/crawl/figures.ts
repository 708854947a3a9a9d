/** The figures a crawl reports: progress snapshots and the end summary. Pure. */
import type { StateCounts } from '../store/index.js';
import type { CrawlProgress, CrawlSummary, StopReason } from './types.js';

/** What the engine knows when it reports. */
export interface Tallies {
  now: number;
  startedAt: number;
  counts: StateCounts;
  run: CrawlSummary['run'];
  /** Failed attempts of this run put back to be tried again. */
  retries: number;
  /** URLs in error put back to waiting at the start (`retryErrors`). */
  requeued: number;
  fetchedTotal: number;
  /** HTTP requests sent in this run. */
  requests: number;
  /** Of which, requests that waited for their host in the fetcher. */
  waitedForHost: number;
  refused: Record<string, number>;
  /** Outcomes refused by the store because their claim was lost (lease.ts). */
  lostClaims: number;
  /** Time and run.fetched at the previous progress event. */
  lastTick: { at: number; fetched: number };
  inFlight: number;
}

export function harvestRate(c: StateCounts): number {
  const judged = c.complete + c.discard;
  return judged > 0 ? c.complete / judged : 0;
}

export function progressOf(t: Tallies): CrawlProgress {
  const elapsedMs = t.now - t.startedAt;
  const dt = (t.now - t.lastTick.at) / 1000;
  return {
    elapsedMs,
    counts: { ...t.counts },
    fetched: t.run.fetched,
    fetchedTotal: t.fetchedTotal,
    pagesPerSec: dt > 0 ? (t.run.fetched - t.lastTick.fetched) / dt : 0,
    averagePagesPerSec: elapsedMs > 0 ? (t.run.fetched * 1000) / elapsedMs : 0,
    harvestRate: harvestRate(t.counts),
    inFlight: t.inFlight,
    frontier: t.counts.waiting,
    bytes: t.run.bytes,
  };
}

/** What the run knows of its end besides the counts: why it failed, when retries are due. */
export interface StopNote {
  /** Why every fetch failed (`failing`): `every fetch in the last 30 s failed: …`. */
  failing?: string;
  /** When the first URL put back by a failed attempt may be tried again; null when none waits. */
  retryAt: number | null;
}

/** `14:05:10` (local time), or `now` when it is past. */
function clock(at: number, now: number): string {
  if (at <= now) return 'now';
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `from ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Why the run stopped, in a sentence. */
export function stopMessage(
  reason: StopReason,
  c: StateCounts,
  limits: { maxPages?: number | undefined; durationMs?: number | undefined },
  seedErrors: readonly { url: string; error: string }[],
  note: StopNote = { retryAt: null },
  now = Date.now(),
): string {
  const retry =
    note.retryAt === null
      ? ''
      : `${c.waiting} URL${c.waiting === 1 ? '' : 's'} wait${c.waiting === 1 ? 's' : ''} to be tried again (${clock(note.retryAt, now)})`;
  switch (reason) {
    case 'failing': {
      const why = note.failing ?? 'every fetch failed';
      // A cause that ends in a question (`is a --resolve missing?`) takes no full stop.
      return `${why}${why.endsWith('?') ? '' : '.'} ${retry || `${c.waiting} URLs are waiting`}: run the same command again once the cause is fixed`;
    }
    case 'exhausted':
      if (c.complete + c.discard === 0 && seedErrors.length > 0) {
        const why = `no seed could be fetched: ${seedErrors.map((e) => `${e.url} (${e.error})`).join('; ')}`;
        return retry === '' ? why : `${why}; ${retry}: run the same command again then`;
      }
      if (retry !== '') {
        return `every URL found was fetched or failed; ${retry}: run the same command again then`;
      }
      return c.discard > 0
        ? `the frontier is empty: every URL found was fetched, and the links of the ${c.discard} discarded (irrelevant) pages were not followed`
        : 'the frontier is empty: every URL found was fetched';
    case 'max-pages':
      return `the page budget (${limits.maxPages}) is reached; ${c.waiting} URLs are waiting`;
    case 'duration':
      return `the duration (${limits.durationMs} ms) is over; ${c.waiting} URLs are waiting`;
    default:
      return `stopped; ${c.waiting} URLs are waiting: run the same command again to resume`;
  }
}

export function summaryOf(
  t: Tallies,
  reason: StopReason,
  message: string,
  resumed: boolean,
  recovered: number,
  seedErrors: readonly { url: string; error: string }[],
  resources: CrawlSummary['resources'],
): CrawlSummary {
  const elapsedMs = t.now - t.startedAt;
  return {
    stopReason: reason,
    message,
    resumed,
    recovered,
    lostClaims: t.lostClaims,
    retries: t.retries,
    requeued: t.requeued,
    run: { ...t.run },
    requests: t.requests,
    waitedForHost: t.waitedForHost,
    refused: { ...t.refused },
    counts: { ...t.counts },
    fetchedTotal: t.fetchedTotal,
    harvestRate: harvestRate(t.counts),
    elapsedMs,
    pagesPerSec: elapsedMs > 0 ? (t.run.fetched * 1000) / elapsedMs : 0,
    seedErrors: [...seedErrors],
    resources: { ...resources },
  };
}
