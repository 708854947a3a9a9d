/**
 * Re-scoring the frontier in the background (online learning, PageRank recomputation):
 * the waiting URLs are walked in pages by id (`Store.scanWaiting`), given new
 * priorities by the current scorer and written back (`Store.reprioritize`), one page
 * at a time with a turn of the event loop in between, so fetches go on and the
 * frontier is never loaded into memory. A request during a pass starts another pass
 * once it ends (each page is scored by the scorer in force when it is read). URLs
 * claimed meanwhile are skipped by the store.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { Store, WaitingUrl } from '../store/index.js';

/** A new priority for a waiting URL, or null to leave it as it is. */
export type Rescore = (w: WaitingUrl) => number | null;

/** Waiting URLs read and written per step. */
export const RESCORE_BATCH = 512;

export class FrontierRescorer {
  readonly #store: Store;
  readonly #score: Rescore;
  readonly #batch: number;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  /** Passes finished and URLs given a new priority, for figures. */
  passes = 0;
  rescored = 0;
  /** Time spent scoring, in milliseconds. */
  scoringMs = 0;

  constructor(store: Store, score: Rescore, batch = RESCORE_BATCH) {
    this.#store = store;
    this.#score = score;
    this.#batch = batch;
  }

  /** Starts a pass, or another one after the pass under way. */
  request(): void {
    if (this.#stopped) return;
    if (this.#running !== null) {
      this.#again = true;
      return;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = null;
    });
  }

  /** Whether a pass is under way. */
  get busy(): boolean {
    return this.#running !== null;
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      await this.#pass();
      this.passes++;
    } while (this.#again && !this.#stopped);
  }

  async #pass(): Promise<void> {
    let afterId = 0;
    for (;;) {
      if (this.#stopped) return;
      const page = await this.#store.scanWaiting({ afterId, limit: this.#batch });
      if (page.length === 0) return;
      afterId = (page.at(-1) as WaitingUrl).id;
      const t0 = performance.now();
      const items: { id: number; priority: number }[] = [];
      for (const w of page) {
        const p = this.#score(w);
        if (p !== null && p !== w.priority && Number.isFinite(p))
          items.push({ id: w.id, priority: p });
      }
      this.scoringMs += performance.now() - t0;
      if (items.length > 0) this.rescored += await this.#store.reprioritize(items);
      if (page.length < this.#batch) return;
      await turn();
    }
  }

  /** Stops after the step under way; resolves when the store is no longer used. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }
}
