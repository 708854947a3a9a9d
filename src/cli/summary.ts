// The summary `crawl` (and `watch`) prints when a run ends: why it stopped, what the
// run fetched, its fetch statistics, the store's states, and the commands to go on with.
import type { CrawlSummary } from '../crawl/index.js';
import { type FetchStats, fetchStatsRows } from './run-stats.js';

/** `; 12 URLs refused before sending (FC_ERR_HOST_UNREACHABLE 10, …)`, or nothing. */
export function refusedText(refused: Record<string, number>): string {
  const e = Object.entries(refused).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (e.length === 0) return '';
  const total = e.reduce((t, [, k]) => t + k, 0);
  return `; ${total} URLs refused before sending (${e.map(([code, k]) => `${code} ${k}`).join(', ')})`;
}

/** A word as a POSIX shell reads it back: as it is when safe, else in single quotes. */
export function shellWord(s: string): string {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The commands to go on with, one a line. */
export function nextCommands(store: string): string[] {
  const at = `--store ${shellWord(store)}`;
  return [
    `focuscrawl status ${at}`,
    `focuscrawl search ${at} "words"`,
    `focuscrawl report ${at} --out report.html`,
  ];
}

/**
 * The summary of a run. `ranked`: the ranking's line; `stats`: the fetch statistics
 * of the run's page events (by status, by error, failing hosts).
 */
export function formatSummary(
  s: CrawlSummary,
  store: string,
  ranked?: string,
  stats?: FetchStats,
): string {
  const c = s.counts;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const rows = stats
    ? fetchStatsRows(stats, { bytes: s.run.bytes, retries: s.retries, requeued: s.requeued })
    : [];
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  return [
    `${s.stopReason}: ${s.message}`,
    `this run: ${s.run.fetched} fetched (${s.run.complete} kept, ${s.run.discard} discarded, ${s.run.error} failed, ${s.run.redirect} redirects) in ${(s.elapsedMs / 1000).toFixed(1)} s, ${s.pagesPerSec.toFixed(1)} pages/s; CPU ${(s.resources.cpuMs / 1000).toFixed(1)} s, peak memory ${(s.resources.peakRssBytes / 1048576).toFixed(0)} MiB`,
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
    `requests: ${s.requests} sent this run${refusedText(s.refused)}; pages fetched (what --max-pages counts): ${s.fetchedTotal}`,
    ...(s.lostClaims > 0
      ? [
          `lost claims: ${s.lostClaims} pages fetched this run were not stored: the run stalled past its lease and another run took their URLs back`,
        ]
      : []),
    `store ${store}: waiting ${c.waiting}, processing ${c.processing}, complete ${c.complete}, discard ${c.discard}, error ${c.error}, redirect ${c.redirect}; harvest rate ${pct(s.harvestRate)}`,
    ...(ranked ? [ranked] : []),
    'next:',
    ...nextCommands(store).map((l) => `  ${l}`),
  ].join('\n');
}
