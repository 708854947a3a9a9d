/**
 * Changes to the totals made by one transaction, gathered in memory and written
 * (or applied) once at its end.
 */
import { hostOf } from '../url/index.js';
import type { FinalState, UrlState } from './types.js';

/** discovered, complete, discard, error, bytes, redirect */
export type HostDelta = [number, number, number, number, number, number];

const HOST_COLUMN: Record<FinalState, number> = { complete: 1, discard: 2, error: 3, redirect: 5 };

export class Tally {
  readonly states = new Map<UrlState, number>();
  discovered = 0;
  dropped = 0;
  /** History rows of complete, discard and error. */
  fetched = 0;
  /** Of those, error rows of failed attempts put back to waiting. */
  retries = 0;
  /** Of those, the ones that record a response (complete, discard, error with a status). */
  responses = 0;
  /** Redirect history rows. */
  redirects = 0;
  bytes = 0;
  readonly hosts = new Map<string, HostDelta>();
  /** Pages recorded as duplicates, by kind. */
  dupExact = 0;
  dupNear = 0;
  /** The next URL id, once the transaction has read it (SQLite). */
  nextId: number | undefined;

  #host(url: string): HostDelta {
    const h = hostOf(url) ?? '';
    let d = this.hosts.get(h);
    if (d === undefined) {
      d = [0, 0, 0, 0, 0, 0];
      this.hosts.set(h, d);
    }
    return d;
  }

  move(from: UrlState | null, to: UrlState | null, n = 1): void {
    if (from !== null) this.states.set(from, (this.states.get(from) ?? 0) - n);
    if (to !== null) this.states.set(to, (this.states.get(to) ?? 0) + n);
  }

  /** A new URL, queued as waiting or (`state`) inserted straight in another state. */
  added(url: string, state: UrlState = 'waiting'): void {
    this.move(null, state);
    this.discovered++;
    this.#host(url)[0]++;
  }

  /**
   * A history row of `state` for `url`, which moved from `from`: processing for a
   * claimed URL; waiting for a redirect's hop or target taken from the frontier;
   * null for one just recorded with `added(url, state)`.
   */
  fetchedOne(
    url: string,
    state: FinalState,
    bytes: number,
    response: boolean,
    from: UrlState | null = 'processing',
  ): void {
    if (from !== null) this.move(from, state);
    if (state === 'redirect') this.redirects++;
    else {
      this.fetched++;
      if (response) this.responses++;
    }
    this.bytes += bytes;
    const d = this.#host(url);
    const c = HOST_COLUMN[state];
    d[c] = (d[c] ?? 0) + 1;
    d[4] += bytes;
  }

  /** The error row of a failed attempt of `url`, which went back from processing to waiting. */
  retried(url: string): void {
    this.move('processing', 'waiting');
    this.fetched++;
    this.retries++;
    this.#host(url)[3]++;
  }

  duplicate(kind: 'exact' | 'near'): void {
    if (kind === 'exact') this.dupExact++;
    else this.dupNear++;
  }

  /** name → delta, for the counters that changed. */
  counters(): [string, number][] {
    const out: [string, number][] = [];
    for (const [s, n] of this.states) if (n !== 0) out.push([s, n]);
    if (this.discovered) out.push(['discovered', this.discovered]);
    if (this.dropped) out.push(['dropped', this.dropped]);
    if (this.fetched) out.push(['fetched', this.fetched]);
    if (this.retries) out.push(['retries', this.retries]);
    if (this.responses) out.push(['responses', this.responses]);
    if (this.redirects) out.push(['redirects', this.redirects]);
    if (this.bytes) out.push(['bytes', this.bytes]);
    if (this.dupExact) out.push(['dup_exact', this.dupExact]);
    if (this.dupNear) out.push(['dup_near', this.dupNear]);
    return out;
  }
}

const CODE_RE = /^(?:FC_ERR_[A-Z0-9_]+|HTTP \d{3})$/;
/** Characters of an error's text that name it when it has no code. */
const CODE_CHARS = 40;

/**
 * The code an error is counted under (`StoreStats.errors`): the text before the
 * first `:` when it looks like `FC_ERR_…` or `HTTP 404`, otherwise the whole text
 * (its first 40 characters).
 */
export function errorCode(error: string): string {
  const i = error.indexOf(':');
  const head = i < 0 ? error : error.slice(0, i);
  if (CODE_RE.test(head)) return head;
  const chars = Array.from(error);
  return chars.length <= CODE_CHARS ? error : chars.slice(0, CODE_CHARS).join('');
}

/** Counts of error texts (or codes) summed by code: most first, ties by code. */
export function errorCounts(
  rows: Iterable<readonly [string, number]>,
): { code: string; count: number }[] {
  const byCode = new Map<string, number>();
  for (const [error, n] of rows) {
    const code = errorCode(error);
    byCode.set(code, (byCode.get(code) ?? 0) + n);
  }
  return [...byCode]
    .map(([code, count]) => ({ code, count }))
    .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
