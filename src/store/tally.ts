/**
 * Changes to the totals made by one transaction, gathered in memory and written
 * (or applied) once at its end.
 */
import { hostOf } from '../url/index.js';
import type { FinalState, UrlState } from './types.js';

/** discovered, complete, discard, error, bytes */
export type HostDelta = [number, number, number, number, number];

const HOST_COLUMN: Record<FinalState, number> = { complete: 1, discard: 2, error: 3 };

export class Tally {
  readonly states = new Map<UrlState, number>();
  discovered = 0;
  dropped = 0;
  fetched = 0;
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
      d = [0, 0, 0, 0, 0];
      this.hosts.set(h, d);
    }
    return d;
  }

  move(from: UrlState | null, to: UrlState | null, n = 1): void {
    if (from !== null) this.states.set(from, (this.states.get(from) ?? 0) - n);
    if (to !== null) this.states.set(to, (this.states.get(to) ?? 0) + n);
  }

  added(url: string): void {
    this.move(null, 'waiting');
    this.discovered++;
    this.#host(url)[0]++;
  }

  fetchedOne(url: string, state: FinalState, bytes: number): void {
    this.move('processing', state);
    this.fetched++;
    this.bytes += bytes;
    const d = this.#host(url);
    const c = HOST_COLUMN[state];
    d[c] = (d[c] ?? 0) + 1;
    d[4] += bytes;
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
    if (this.bytes) out.push(['bytes', this.bytes]);
    if (this.dupExact) out.push(['dup_exact', this.dupExact]);
    if (this.dupNear) out.push(['dup_near', this.dupNear]);
    return out;
  }
}
