// Evenly spaced samples of a stream of unknown length, in bounded memory: the
// points of a chart or a curve. Pure.

/**
 * Keeps at most `max` evenly spaced items of a stream of unknown length: items
 * 0, s, 2s, … with the stride s doubling (and every other kept item dropped)
 * whenever more than `max` are held. `points()` adds the last item, so that a
 * series always ends at the stream's final value; it returns between max/2 and
 * max + 1 items once the stream is longer than `max`.
 */
export class Decimator<T> {
  readonly #max: number;
  #stride = 1;
  #seen = 0;
  #items: T[] = [];
  #last: T | undefined;
  #lastKept = false;

  constructor(max: number) {
    if (!(Number.isInteger(max) && max >= 2)) throw new RangeError(`max must be ≥ 2, got ${max}`);
    this.#max = max;
  }

  push(item: T): void {
    this.#lastKept = this.#seen % this.#stride === 0;
    if (this.#lastKept) {
      this.#items.push(item);
      if (this.#items.length > this.#max) {
        this.#items = this.#items.filter((_, i) => i % 2 === 0);
        this.#stride *= 2;
        this.#lastKept = this.#seen % this.#stride === 0;
      }
    }
    this.#seen++;
    this.#last = item;
  }

  /** Items seen so far. */
  get seen(): number {
    return this.#seen;
  }

  points(): T[] {
    if (this.#last === undefined || this.#lastKept) return [...this.#items];
    return [...this.#items, this.#last];
  }
}
