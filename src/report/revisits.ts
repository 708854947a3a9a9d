// The revisits of a watched store (DESIGN 1.3), aggregated for the report: visits per
// time bucket by what they found, and the pages' change rates λ̂ by decade. One pass
// over visits() and one over revisits(), in bounded memory (at most MAX_BUCKETS
// buckets, six decades).
import { RATE_DECADES, rateDecade } from '../schedule/index.js';
import { type Store, VISIT_CHANGES, type VisitChange } from '../store/index.js';
import { DAY, HOUR, MINUTE, SECOND } from './scale.js';

/** Most buckets on the time axis: the bucket widens until the visits fit. */
export const MAX_BUCKETS = 48;

/** Bucket widths, each a multiple of the one before (then doubling), so buckets merge exactly. */
const WIDTHS = [
  SECOND,
  5 * SECOND,
  15 * SECOND,
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  7 * DAY,
];
const widthAt = (level: number): number =>
  level < WIDTHS.length ? (WIDTHS[level] as number) : 7 * DAY * 2 ** (level - WIDTHS.length + 1);

export { RATE_DECADES, rateDecade };

/** The visits of one time bucket, by what they found. */
export interface VisitBucket extends Record<VisitChange, number> {
  /** The bucket's start, ms since the epoch (a multiple of the width). */
  start: number;
}

/** Pages of one λ̂ decade: scheduled for a revisit, not scheduled (given up), gone. */
export interface RateBin {
  label: string;
  scheduled: number;
  unscheduled: number;
  gone: number;
}

export interface RevisitReport {
  /** Revisits recorded, by what they found. */
  totals: Record<VisitChange, number>;
  /** Kept pages with a revisit record. */
  pages: number;
  firstVisitAt: number;
  lastVisitAt: number;
  /** The buckets' width, ms. */
  bucketMs: number;
  /** Every bucket from the first visit's to the last one's, empty ones included. */
  buckets: VisitBucket[];
  /** λ̂ by decade, `RATE_DECADES` order. */
  rates: RateBin[];
  /** Pages without an estimate yet. */
  unrated: number;
}

const zero = (): Record<VisitChange, number> => ({ unchanged: 0, changed: 0, gone: 0, failed: 0 });

/** Counts visits into at most `max` buckets of a round width, widening them as the span grows. */
export class VisitBuckets {
  #level = 0;
  #counts = new Map<number, Record<VisitChange, number>>();
  #min = Number.POSITIVE_INFINITY;
  #max = Number.NEGATIVE_INFINITY;

  constructor(readonly max = MAX_BUCKETS) {}

  get width(): number {
    return widthAt(this.#level);
  }

  add(at: number, change: VisitChange): void {
    this.#min = Math.min(this.#min, at);
    this.#max = Math.max(this.#max, at);
    while (this.#span() > this.max) this.#widen();
    const key = Math.floor(at / this.width);
    let c = this.#counts.get(key);
    if (c === undefined) {
      c = zero();
      this.#counts.set(key, c);
    }
    c[change]++;
  }

  #span(): number {
    return Math.floor(this.#max / this.width) - Math.floor(this.#min / this.width) + 1;
  }

  #widen(): void {
    const old = this.width;
    this.#level++;
    const merged = new Map<number, Record<VisitChange, number>>();
    for (const [k, c] of this.#counts) {
      const key = Math.floor((k * old) / this.width);
      const m = merged.get(key);
      if (m === undefined) merged.set(key, c);
      else for (const ch of VISIT_CHANGES) m[ch] += c[ch];
    }
    this.#counts = merged;
  }

  /** Every bucket from the first to the last, oldest first. */
  buckets(): VisitBucket[] {
    if (this.#counts.size === 0) return [];
    const w = this.width;
    const out: VisitBucket[] = [];
    for (let k = Math.floor(this.#min / w); k <= Math.floor(this.#max / w); k++) {
      out.push({ start: k * w, ...(this.#counts.get(k) ?? zero()) });
    }
    return out;
  }
}

/** The revisits the report shows; null when the store has no recorded visit. */
export async function gatherRevisits(store: Store): Promise<RevisitReport | null> {
  const t = await store.revisitTotals();
  if (VISIT_CHANGES.every((c) => t.visits[c] === 0)) return null;
  const buckets = new VisitBuckets();
  const totals = zero();
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for await (const v of store.visits()) {
    buckets.add(v.at, v.change);
    totals[v.change]++;
    first = Math.min(first, v.at);
    last = Math.max(last, v.at);
  }
  const rates: RateBin[] = RATE_DECADES.map((label) => ({
    label,
    scheduled: 0,
    unscheduled: 0,
    gone: 0,
  }));
  let pages = 0;
  let unrated = 0;
  for await (const r of store.revisits()) {
    pages++;
    if (r.rate === null) {
      unrated++;
      continue;
    }
    const bin = rates[rateDecade(r.rate)] as RateBin;
    if (r.goneAt !== null) bin.gone++;
    else if (r.dueAt === null) bin.unscheduled++;
    else bin.scheduled++;
  }
  if (!Number.isFinite(first)) return null;
  return {
    totals,
    pages,
    firstVisitAt: first,
    lastVisitAt: last,
    bucketMs: buckets.width,
    buckets: buckets.buckets(),
    rates,
    unrated,
  };
}
