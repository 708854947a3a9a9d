/**
 * URLs this run already handed to the store, so that the links every page repeats
 * (navigation, footers) are not sent again. Two generations of at most `capacity`
 * URLs: a URL seen while the young one fills survives the next turnover. A miss
 * only costs a trip to the store, which is the authority on what is known.
 */
export class SeenUrls {
  #young = new Set<string>();
  #old = new Set<string>();
  readonly #capacity: number;

  constructor(capacity = 500_000) {
    this.#capacity = capacity;
  }

  has(url: string): boolean {
    if (this.#young.has(url)) return true;
    if (this.#old.has(url)) {
      this.add(url);
      return true;
    }
    return false;
  }

  add(url: string): void {
    this.#young.add(url);
    if (this.#young.size >= this.#capacity) {
      this.#old = this.#young;
      this.#young = new Set();
    }
  }
}
