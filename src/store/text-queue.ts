/**
 * Kept pages' texts waiting for the full-text index, when the SQLite store runs on a
 * thread of its own (thread-worker.ts): FTS5's indexing is most of a commit's time with
 * full text on, and a commit holds up the crawl's next claim. A commit stages its
 * pages' texts; they join the queue once it commits (none of a rolled-back one); the
 * store's thread indexes them while no call waits, a chunk at a time, and the store
 * indexes them all before any call that reads the index, once the queue holds more
 * than MAX_QUEUED_CHARS, and when it closes. A crash loses what was queued: those kept
 * pages are not in the index, and the next run with full text on indexes them from
 * their stored bodies (crawl/text-backfill.ts), as it does pages kept without it.
 */

/** A page's URL id, and its title and text as the index keeps them (segmented). */
export type QueuedText = [id: number, title: string, text: string, body: boolean];

/** Characters queued at most before the store indexes them all at once (~1,200 pages). */
export const MAX_QUEUED_CHARS = 8 << 20;

export class TextQueue {
  #staged: QueuedText[] = [];
  #queued: QueuedText[] = [];
  #chars = 0;
  readonly #maxChars: number;

  constructor(maxChars = MAX_QUEUED_CHARS) {
    this.#maxChars = maxChars;
  }

  /** A text of the transaction under way. */
  stage(id: number, title: string, text: string, body: boolean): void {
    this.#staged.push([id, title, text, body]);
  }

  /** The transaction committed: its texts join the queue. */
  commit(): void {
    for (const e of this.#staged) {
      this.#queued.push(e);
      this.#chars += e[1].length + e[2].length;
    }
    this.#staged = [];
  }

  /** The transaction rolled back: its texts are dropped. */
  rollback(): void {
    this.#staged = [];
  }

  /** Texts queued. */
  get size(): number {
    return this.#queued.length;
  }

  /** More than the most characters are queued. */
  get full(): boolean {
    return this.#chars > this.#maxChars;
  }

  /** Takes the `n` oldest queued texts out of the queue. */
  take(n: number): QueuedText[] {
    const out = this.#queued.length <= n ? this.#queued : this.#queued.slice(0, n);
    this.#queued = out === this.#queued ? [] : this.#queued.slice(n);
    for (const e of out) this.#chars -= e[1].length + e[2].length;
    return out;
  }
}
