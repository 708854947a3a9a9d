/** A binary max-heap: the item `before` puts first is on top. */
export class Heap<T> {
  readonly #items: T[] = [];
  readonly #before: (a: T, b: T) => boolean;

  constructor(before: (a: T, b: T) => boolean) {
    this.#before = before;
  }

  get size(): number {
    return this.#items.length;
  }

  /** The first item, left in place. */
  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const a = this.#items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.#before(a[i] as T, a[up] as T)) break;
      [a[i], a[up]] = [a[up] as T, a[i] as T];
      i = up;
    }
  }

  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    this.#down(0);
    return top;
  }

  /** Keeps only the items `keep` accepts (linear time). */
  retain(keep: (item: T) => boolean): void {
    const a = this.#items;
    let n = 0;
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as T;
      if (keep(x)) a[n++] = x;
    }
    a.length = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  clear(): void {
    this.#items.length = 0;
  }

  #down(from: number): void {
    const a = this.#items;
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.#before(a[l] as T, a[m] as T)) m = l;
      if (r < a.length && this.#before(a[r] as T, a[m] as T)) m = r;
      if (m === i) break;
      [a[i], a[m]] = [a[m] as T, a[i] as T];
      i = m;
    }
  }
}
