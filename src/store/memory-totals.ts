/**
 * The running totals of the memory store: URLs per state, discovered, dropped,
 * fetched, responses, redirects, bytes and per-host figures, moved by each
 * call's tally (tally.ts) as the SQLite store's counters are.
 */
import type { Tally } from './tally.js';
import { type HostStats, type StateCounts, URL_STATES } from './types.js';

export class MemoryTotals {
  readonly counts = Object.fromEntries(URL_STATES.map((s) => [s, 0])) as StateCounts;
  discovered = 0;
  dropped = 0;
  fetched = 0;
  retries = 0;
  responses = 0;
  redirects = 0;
  bytes = 0;
  readonly #hosts = new Map<string, HostStats>();

  apply(t: Tally): void {
    for (const [s, n] of t.states) this.counts[s] += n;
    this.discovered += t.discovered;
    this.dropped += t.dropped;
    this.fetched += t.fetched;
    this.retries += t.retries;
    this.responses += t.responses;
    this.redirects += t.redirects;
    this.bytes += t.bytes;
    for (const [host, d] of t.hosts) {
      let h = this.#hosts.get(host);
      if (h === undefined) {
        h = {
          host,
          discovered: 0,
          fetched: 0,
          complete: 0,
          discard: 0,
          error: 0,
          redirect: 0,
          bytes: 0,
        };
        this.#hosts.set(host, h);
      }
      h.discovered += d[0];
      h.complete += d[1];
      h.discard += d[2];
      h.error += d[3];
      h.bytes += d[4];
      h.redirect += d[5];
      h.fetched = h.complete + h.discard + h.error;
    }
  }

  /** A URL moved from one state to another outside a tally (claims, requeues). */
  move(from: keyof StateCounts, to: keyof StateCounts, n = 1): void {
    this.counts[from] -= n;
    this.counts[to] += n;
  }

  /** The `top` hosts with the most fetches (then discoveries, then name). */
  topHosts(top: number): HostStats[] {
    return [...this.#hosts.values()]
      .map((h) => ({ ...h }))
      .sort(
        (a, b) =>
          b.fetched - a.fetched ||
          b.discovered - a.discovered ||
          (a.host < b.host ? -1 : a.host > b.host ? 1 : 0),
      )
      .slice(0, top);
  }
}
