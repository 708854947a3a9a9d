// The fetch statistics of a crawl, as the end-of-run summary and `status` show them:
// outcomes by HTTP status and by error code, retries, bytes, and the hosts that fail
// most (failures and their share of the host's fetches). Built from fetch records
// (the crawl's page events during a run, the store's history for `status`). Pure.
import { errorCode as storeErrorCode } from '../store/tally.js';
import type { FinalState } from '../store/types.js';
import { hostOf as urlHostOf } from '../url/index.js';
import { formatBytes, formatCount, formatPercent } from '../util/index.js';

/** One fetch outcome: a page event of the crawl, or a history row of the store. */
export interface FetchRecord {
  url: string;
  state: FinalState;
  /** HTTP status; null when no response was received. */
  status: number | null;
  /** The error text (`FC_ERR_DNS: …`, `HTTP 404`) of an outcome in state error. */
  error: string | null;
  /** Which attempt of the URL this outcome was (1: the first); absent when not recorded. */
  attempt?: number | undefined;
  /**
   * A failed attempt put back to wait for another: when the URL may be tried again;
   * null or absent for an outcome that ended its URL.
   */
  retryAt?: number | null | undefined;
  /** How long the fetch took (request to end of body), when known. */
  fetchMs?: number | undefined;
}

/** A host's failures. */
export interface HostFailures {
  host: string;
  /** Fetch outcomes of the host (redirect hops apart). */
  fetches: number;
  /** Outcomes in state error. */
  failures: number;
  /** failures / fetches. */
  share: number;
}

/** What `tallyFetches` counts. */
export interface FetchStats {
  /** Fetch outcomes (redirect hops apart). */
  fetches: number;
  /** Redirect hops. */
  redirects: number;
  /** Outcomes and redirect hops by HTTP status, `none` for no response; most first. */
  byStatus: { status: string; count: number }[];
  /** Failures by error code (`FC_ERR_DNS`, `HTTP 404`), most first. */
  byError: { code: string; count: number }[];
  /** Outcomes of a later attempt of their URL (attempt > 1); null when attempts are not recorded. */
  retried: number | null;
  /** Failed attempts put back to wait for another (`retryAt` set). */
  putBack: number;
  /** Hosts with at least one failure, most failures first, then the higher share. */
  failingHosts: HostFailures[];
  /** Hosts by median fetch time, slowest first (those with timed fetches only). */
  slowHosts: HostTimes[];
}

/** A host's fetch times. */
export interface HostTimes {
  host: string;
  /** Fetches timed. */
  timed: number;
  /** Their median duration, ms. */
  medianMs: number;
}

/** The median of `xs` (not empty). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Status key of an outcome that received no response. */
export const NO_RESPONSE = 'none';

/**
 * The code of an error text: what comes before the first `:` when it looks like
 * `FC_ERR_…` or `HTTP 404` (as the store counts errors), `HTTP 503` for a text that
 * begins with one (`HTTP 503 Service Unavailable`), else its first 40 characters.
 */
export function errorCode(error: string): string {
  const http = /^HTTP \d{3}\b/.exec(error);
  return http ? http[0] : storeErrorCode(error.trim());
}

/** The host name of a URL (without port), or the URL itself when it has none. */
export function hostOf(url: string): string {
  return urlHostOf(url) ?? url;
}

const byCount = <K extends string>(m: Map<string, number>, key: K) =>
  [...m]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, count]) => ({ [key]: k, count }) as Record<K, string> & { count: number });

/** A tally that records are added to one at a time (a running crawl), then read. */
export class FetchTally {
  #fetches = 0;
  #redirects = 0;
  #retried = 0;
  #putBack = 0;
  #attempts = false;
  readonly #status = new Map<string, number>();
  readonly #errors = new Map<string, number>();
  readonly #hosts = new Map<string, { fetches: number; failures: number }>();
  readonly #times = new Map<string, number[]>();

  add(r: FetchRecord): void {
    const status = r.status === null ? NO_RESPONSE : String(r.status);
    this.#status.set(status, (this.#status.get(status) ?? 0) + 1);
    if (r.attempt !== undefined) {
      this.#attempts = true;
      if (r.attempt > 1) this.#retried++;
    }
    if (typeof r.retryAt === 'number') this.#putBack++;
    if (r.state === 'redirect') {
      this.#redirects++;
      return;
    }
    this.#fetches++;
    const host = hostOf(r.url);
    if (r.fetchMs !== undefined) {
      const t = this.#times.get(host);
      if (t === undefined) this.#times.set(host, [r.fetchMs]);
      else t.push(r.fetchMs);
    }
    const h = this.#hosts.get(host) ?? { fetches: 0, failures: 0 };
    h.fetches++;
    if (r.state === 'error') {
      h.failures++;
      const code = errorCode(r.error ?? '');
      this.#errors.set(code, (this.#errors.get(code) ?? 0) + 1);
    }
    this.#hosts.set(host, h);
  }

  result(): FetchStats {
    const failingHosts = [...this.#hosts]
      .filter(([, h]) => h.failures > 0)
      .map(([host, h]) => ({ host, ...h, share: h.failures / h.fetches }))
      .sort((a, b) => b.failures - a.failures || b.share - a.share || a.host.localeCompare(b.host));
    return {
      fetches: this.#fetches,
      redirects: this.#redirects,
      byStatus: byCount(this.#status, 'status'),
      byError: byCount(this.#errors, 'code'),
      retried: this.#attempts ? this.#retried : null,
      putBack: this.#putBack,
      failingHosts,
      slowHosts: [...this.#times]
        .map(([host, t]) => ({ host, timed: t.length, medianMs: median(t) }))
        .sort((a, b) => b.medianMs - a.medianMs || a.host.localeCompare(b.host)),
    };
  }
}

/** The statistics of `records`. */
export function tallyFetches(records: Iterable<FetchRecord>): FetchStats {
  const t = new FetchTally();
  for (const r of records) t.add(r);
  return t.result();
}

/** What the block shows beside the tally. */
export interface FetchStatsExtra {
  /** Body bytes received. */
  bytes?: number;
  /** Retries of this run (`CrawlSummary.retries`: failed fetches put back to wait for another attempt). */
  retries?: number;
  /** Failed URLs put back to waiting on request (`crawl --retry-errors`). */
  requeued?: number;
  /** Entries listed per line. @default 6 */
  top?: number;
}

/** `a 3, b 2, … (4 more)`: the first `top` entries. */
function list(entries: [string, number][], top: number): string {
  const shown = entries.slice(0, top).map(([k, n]) => `${k} ${formatCount(n)}`);
  const more = entries.length > top ? `, … (${entries.length - top} more)` : '';
  return shown.join(', ') + more;
}

/**
 * The statistics as rows of a compact block, `[label, text]`: fetches by status,
 * errors by cause, retries, bytes and the most failing hosts. Rows without figures
 * are left out.
 */
export function fetchStatsRows(s: FetchStats, extra: FetchStatsExtra = {}): [string, string][] {
  const top = extra.top ?? 6;
  const rows: [string, string][] = [];
  if (s.byStatus.length > 0) {
    const statuses = s.byStatus.map(
      (e) => [e.status === NO_RESPONSE ? 'no response' : e.status, e.count] as [string, number],
    );
    rows.push(['by status', list(statuses, top)]);
  }
  if (s.byError.length > 0) {
    rows.push([
      'by error',
      list(
        s.byError.map((e) => [e.code, e.count]),
        top,
      ),
    ]);
  }
  const retries: string[] = [];
  const n = (k: number, one: string, many: string) => `${formatCount(k)} ${k === 1 ? one : many}`;
  const putBack = extra.retries ?? s.putBack;
  if (putBack > 0)
    retries.push(
      `${n(putBack, 'failed fetch', 'failed fetches')} put back to wait for another attempt`,
    );
  if (s.retried !== null && s.retried > 0)
    retries.push(`${n(s.retried, 'outcome', 'outcomes')} of a second or later attempt`);
  if (extra.requeued !== undefined && extra.requeued > 0)
    retries.push(`${n(extra.requeued, 'failed URL', 'failed URLs')} re-queued`);
  if (retries.length > 0) rows.push(['retries', retries.join(', ')]);
  if (extra.bytes !== undefined) {
    const pages = s.fetches - s.byError.reduce((t, e) => t + e.count, 0);
    const per = pages > 0 ? ` (${formatBytes(Math.round(extra.bytes / pages))} per page)` : '';
    rows.push(['bytes', `${formatBytes(extra.bytes)} received${per}`]);
  }
  if (s.failingHosts.length > 0) {
    const hosts = s.failingHosts
      .slice(0, Math.min(top, 3))
      .map(
        (h) =>
          `${h.host} ${formatCount(h.failures)} of ${formatCount(h.fetches)} (${formatPercent(h.share)})`,
      );
    const more = s.failingHosts.length > 3 ? `, … (${s.failingHosts.length - 3} more)` : '';
    rows.push(['failing hosts', hosts.join(', ') + more]);
  }
  if (s.slowHosts.length > 1) {
    const slow = s.slowHosts
      .slice(0, 3)
      .map((h) => `${h.host} ${formatCount(Math.round(h.medianMs))} ms`);
    const more = s.slowHosts.length > 3 ? `, … (${s.slowHosts.length - 3} more)` : '';
    rows.push(['slowest hosts', `${slow.join(', ')}${more} (median per fetch)`]);
  }
  return rows;
}
