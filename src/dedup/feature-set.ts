/**
 * The set of 64-bit features already seen on the page being fingerprinted: open
 * addressing over one typed array (stamp, low half, high half per slot: one cache
 * line per probe), emptied in O(1) between pages by a generation stamp.
 *
 * The fingerprinting loop probes `slots` itself (linear probing from `lo & mask`; a
 * method call per feature costs more than the probe). {@link reserve} makes room for
 * a whole page first, so the table never fills up during a page: at most one
 * feature per token, at most one token per UTF-16 code unit.
 */
export class FeatureSet {
  /** Per slot: stamp (`gen` when taken on this page), low half, high half. */
  slots = new Int32Array(3 * 1024);
  /** Slots − 1 (a power of two minus one). */
  mask = 1023;
  /** The current page's stamp. */
  gen = 1;

  /**
   * Empties the set and makes room for `n` features at a load of at most one half.
   * A table far larger than needed (after a huge page) is given back.
   */
  reserve(n: number): void {
    const want = 2 ** Math.ceil(Math.log2(Math.max(1024, 2 * n)));
    const have = this.mask + 1;
    if (want > have || (have > 65_536 && have >= 16 * want)) {
      this.slots = new Int32Array(3 * want);
      this.mask = want - 1;
      this.gen = 1;
      return;
    }
    if (this.gen === 0x7fffffff) {
      this.slots.fill(0);
      this.gen = 0;
    }
    this.gen++;
  }
}
