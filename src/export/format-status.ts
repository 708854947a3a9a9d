// `focuscrawl status` as a table for people. Pure.
import { URL_STATES } from '../store/index.js';
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatPercent,
  formatTime,
} from '../util/index.js';
import { revisitLines } from './format-revisits.js';
import type { StatusData } from './status.js';
import { formatTable } from './table.js';

const STOP_REASONS: Record<string, string> = {
  exhausted: 'exhausted (nothing left to fetch)',
  'max-pages': 'max-pages reached',
  duration: 'duration reached',
  stopped: 'stopped (Ctrl-C or stop())',
};

/** A threshold or weight as people read it: `0.1`, `0.1834`. */
const short = (x: number) => String(+x.toPrecision(4));

/** The threshold and topic-vector rows, when the crawl recorded their histories. */
function adaptationLines(d: StatusData): string[] {
  const out: string[] = [];
  const row = (k: string, v: string) => out.push(`${k.padEnd(15)} ${v}`);
  const t = d.threshold;
  if (t) {
    const changes = t.changes === 1 ? '1 change' : `${formatCount(t.changes)} changes`;
    const moved = t.changes === 0 ? short(t.value) : `${short(t.initial)} → ${short(t.value)}`;
    row('Threshold', `${t.kind} ${moved}${t.frozen ? ', frozen' : ''} (${changes})`);
    if (t.last.length > 0) {
      out.push(`  last ${t.last.length === 1 ? 'change' : `${t.last.length} changes`}`);
      const table = formatTable(
        ['rule', 'fetched', 'from', 'to', 'at'],
        t.last.map((c) => [
          c.rule,
          formatCount(c.fetched),
          short(c.from),
          short(c.to),
          formatTime(c.at),
        ]),
      );
      for (const l of table) out.push(`    ${l}`);
    }
  }
  const v = d.topicVector;
  if (v) {
    const changes = v.changes === 1 ? '1 change' : `${formatCount(v.changes)} changes`;
    const last = v.last;
    const tail =
      last === null
        ? ''
        : `; last at ${formatCount(last.fetched)} fetched: drift ${last.drift.toFixed(3)}${last.limited ? ' (limited)' : ''}, +${last.added.length} / −${last.removed.length} keywords`;
    row('Topic vector', `${changes}${tail} (${formatCount(v.keywords)} keywords now)`);
  }
  return out;
}

/** The ranking and the best pages by P (DESIGN 1.1's final score). */
function topPageLines(d: StatusData): string[] {
  const r = d.ranking;
  if (r === null) return ['', 'Ranking         none yet (focuscrawl rank --store DIR)'];
  const by = r.algorithm === 'hits' ? 'HITS authority' : `PageRank d=${r.damping}`;
  const out = [
    '',
    `Ranking         ${formatTime(r.at)}: ${by}, P = ${r.w1}·relevance + ${r.w2}·PR over ${formatCount(r.pages)} pages`,
  ];
  if (d.topPages.length === 0) return out;
  out.push('', 'Top pages by P');
  const f = (x: number | null) => (x === null ? '–' : x.toFixed(3));
  const table = formatTable(
    ['url', 'P', 'relevance', 'PR'],
    d.topPages.map((p) => [p.url, f(p.score), f(p.relevance), f(p.pageRank)]),
  );
  for (const l of table) out.push(`  ${l}`);
  return out;
}

/** ` by cause: FC_ERR_DNS 12, HTTP 404 3, …` (the first `max`), or nothing. */
function causes(list: { code: string; count: number }[], max = 5, lead = ' by cause:'): string {
  if (list.length === 0) return '';
  const shown = list.slice(0, max).map((e) => `${e.code} ${formatCount(e.count)}`);
  const more = list.length > max ? `, … (${list.length - max} more)` : '';
  return `${lead} ${shown.join(', ')}${more}`;
}

/** The status table (DESIGN 1.1's statistics and more). */
export function formatStatus(d: StatusData): string {
  const lines: string[] = [];
  const row = (k: string, v: string) => lines.push(`${k.padEnd(15)} ${v}`);
  const n = (x: number) => formatCount(x);

  if (d.topic) {
    const name = d.topic.name ?? '(unnamed)';
    const threshold = d.topic.threshold === null ? '' : `threshold ${d.topic.threshold}, `;
    row('Topic', `${name} (${threshold}${d.topic.keywords} keywords)`);
  } else {
    row('Topic', '(none recorded)');
  }
  row('Seeds', n(d.seeds));
  if (d.running.length === 0) row('Running', 'no crawl');
  for (const r of d.running) {
    const since = new Date(r.startedAt).toISOString();
    row(
      'Running',
      r.lost
        ? `a crawl (pid ${r.pid} on ${r.host}, since ${since}) stopped renewing its lease: the next run takes its claims back`
        : `a crawl (pid ${r.pid} on ${r.host}, since ${since}; lease until ${new Date(r.expiresAt).toISOString()})`,
    );
  }
  row('Docs fetched', n(d.fetched));
  row('  pages', `${n(d.responses)} (responses that ended a URL: what --max-pages counts)`);
  row('  redirects', n(d.redirects));
  row('  failed', `${n(d.failed)} (error)${causes(d.errors)}`);
  row('  rejected', `${n(d.rejected)} (discard: below the threshold)`);
  row(
    'Requests sent',
    d.requests === null
      ? '– (not recorded)'
      : `${n(d.requests)} (pages, redirect hops, retries, robots.txt, sitemaps)`,
  );
  const refused = d.refused.reduce((t, e) => t + e.count, 0);
  row(
    'Refused',
    refused === 0
      ? '0 URLs refused before sending'
      : `${n(refused)} URLs refused before sending:${causes(d.refused, 8, '')}`,
  );
  row('Discovered', `${n(d.discovered)} URLs`);
  row('Dropped', `${n(d.dropped)} (frontier trimmed)`);
  row('Bytes', d.bytes < 1024 ? `${n(d.bytes)} B` : `${n(d.bytes)} (${formatBytes(d.bytes)})`);
  if (d.totalTimeMs === null) {
    row('Total time', '– (nothing fetched yet)');
  } else {
    const span = `${formatTime(d.startedAt)} → ${formatTime(d.endedAt)}`;
    const from = d.timeSource === 'history' ? ', first to last fetch' : '';
    row('Total time', `${formatDuration(d.totalTimeMs)} (${span}${from})`);
  }
  if (d.crawlTimeMs !== null) {
    const runs = d.runs.count === 1 ? '1 run' : `${d.runs.count} runs`;
    const how = d.timeSource === 'runs' ? `sum of ${runs}` : 'no run records';
    row('Crawl time', `${formatDuration(d.crawlTimeMs)} (${how})`);
  }
  row('Pages/s', d.pagesPerSec === null ? '–' : d.pagesPerSec.toFixed(2));
  row('Harvest rate', `${formatPercent(d.harvestRate)} (complete / (complete + discard))`);
  const dups = d.duplicates.exact + d.duplicates.near;
  row(
    'Duplicates',
    dups === 0
      ? '0'
      : `${n(dups)} (${n(d.duplicates.exact)} exact, ${n(d.duplicates.near)} near: recorded, not stored twice)`,
  );
  lines.push(...adaptationLines(d));

  lines.push('', 'URL states');
  for (const s of URL_STATES) lines.push(`  ${s.padEnd(13)} ${n(d.counts[s]).padStart(10)}`);

  lines.push('');
  if (d.runs.count === 0) {
    row('Runs', 'none recorded');
  } else {
    const last = d.runs.lastStopReason;
    const why = last === null ? 'running, or its process died' : (STOP_REASONS[last] ?? last);
    row('Runs', `${d.runs.count}, last: ${why}`);
  }
  if (d.revisits) lines.push(...revisitLines(d.revisits));

  lines.push(...topPageLines(d));

  if (d.topHosts.length > 0) {
    lines.push('', 'Top hosts');
    const table = formatTable(
      ['host', 'fetched', 'complete', 'discard', 'error', 'discovered', 'bytes'],
      d.topHosts.map((h) => [
        h.host,
        n(h.fetched),
        n(h.complete),
        n(h.discard),
        n(h.error),
        n(h.discovered),
        formatBytes(h.bytes),
      ]),
    );
    for (const l of table) lines.push(`  ${l}`);
  }
  return lines.join('\n');
}
