// Streaming aggregation for the report: each helper takes rows one at a time and
// keeps a bounded amount of memory (a few hundred points, N pages). Pure.

/** Relevance histogram bins over [0, 1]. */
export const HISTOGRAM_BINS = 20;

/**
 * The bin of a relevance in [0, 1] split into `bins` equal bins, each closed on the
 * left: a page at exactly the threshold 0.1 falls in [0.10, 0.15). Values outside
 * [0, 1] are clamped; 1 falls in the last bin.
 */
export function binIndex(value: number, bins = HISTOGRAM_BINS): number {
  if (!(value > 0)) return 0;
  // No rounding slack: a relevance a hair below the threshold was discarded and
  // belongs left of the threshold line.
  const i = Math.floor(value * bins);
  return Math.min(Math.max(i, 0), bins - 1);
}

/** Counts of complete and discarded pages per relevance bin. */
export interface Histogram {
  bins: number;
  complete: number[];
  discard: number[];
}

export function emptyHistogram(bins = HISTOGRAM_BINS): Histogram {
  return { bins, complete: new Array(bins).fill(0), discard: new Array(bins).fill(0) };
}

export function addToHistogram(
  h: Histogram,
  state: 'complete' | 'discard',
  relevance: number,
): void {
  const counts = state === 'complete' ? h.complete : h.discard;
  const i = binIndex(relevance, h.bins);
  counts[i] = (counts[i] ?? 0) + 1;
}

/** One point of the harvest-rate chart. */
export interface HarvestPoint {
  /** Pages fetched so far (complete + discard). */
  pages: number;
  /** complete / pages over the whole crawl so far. */
  cumulative: number;
  /** complete / pages over the last `window` pages (fewer at the start). */
  recent: number;
}

/** Cumulative and moving-window harvest rate of a stream of page outcomes. */
export class HarvestTracker {
  readonly #ring: Uint8Array;
  #pages = 0;
  #complete = 0;
  #recentComplete = 0;

  constructor(readonly window: number) {
    if (!(Number.isInteger(window) && window >= 1))
      throw new RangeError(`window must be ≥ 1, got ${window}`);
    this.#ring = new Uint8Array(window);
  }

  push(state: 'complete' | 'discard'): HarvestPoint {
    const kept = state === 'complete' ? 1 : 0;
    const slot = this.#pages % this.window;
    if (this.#pages >= this.window) this.#recentComplete -= this.#ring[slot] ?? 0;
    this.#ring[slot] = kept;
    this.#recentComplete += kept;
    this.#complete += kept;
    this.#pages++;
    return {
      pages: this.#pages,
      cumulative: this.#complete / this.#pages,
      recent: this.#recentComplete / Math.min(this.#pages, this.window),
    };
  }
}

/**
 * The moving window for a crawl of `pages` pages: 100 pages, or a tenth of the
 * crawl when that is smaller (at least 10), so that short crawls still show a trend.
 */
export function harvestWindow(pages: number, max = 100): number {
  return Math.max(1, Math.min(max, Math.max(10, Math.ceil(pages / 10))));
}

/** A harvest-rate series of a known sequence of outcomes (the streaming tracker applied). */
export function harvestSeries(
  states: readonly ('complete' | 'discard')[],
  window: number,
): HarvestPoint[] {
  const t = new HarvestTracker(window);
  return states.map((s) => t.push(s));
}

/**
 * Counts values into the buckets delimited by ascending `edges`: bucket i takes
 * the values v with edges[i-1] < v ≤ edges[i] (bucket 0: v ≤ edges[0]); values
 * above the last edge go to the last bucket. `prefixSums` then turns the buckets
 * into "how many values up to edges[i]".
 */
export class EdgeCounter {
  readonly #edges: readonly number[];
  readonly #counts: number[];

  constructor(edges: readonly number[]) {
    this.#edges = edges;
    this.#counts = new Array(edges.length).fill(0);
  }

  add(value: number): void {
    const n = this.#edges.length;
    if (n === 0) return;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (value <= (this.#edges[mid] as number)) hi = mid;
      else lo = mid + 1;
    }
    this.#counts[lo] = (this.#counts[lo] ?? 0) + 1;
  }

  prefixSums(): number[] {
    let sum = 0;
    return this.#counts.map((c) => {
      sum += c;
      return sum;
    });
  }
}

/**
 * The best `n` items of a stream under `better(a, b)` (true when a ranks above b),
 * best first; among equals the earlier item stays ahead. Holds at most n items.
 */
export class TopN<T> {
  readonly #items: T[] = [];

  constructor(
    readonly n: number,
    readonly better: (a: T, b: T) => boolean,
  ) {}

  push(item: T): void {
    const a = this.#items;
    if (this.n <= 0) return;
    if (a.length >= this.n && !this.better(item, a[a.length - 1] as T)) return;
    // First position whose item ranks below the new one (binary search).
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.better(item, a[mid] as T)) hi = mid;
      else lo = mid + 1;
    }
    a.splice(lo, 0, item);
    if (a.length > this.n) a.pop();
  }

  items(): T[] {
    return [...this.#items];
  }
}
