/**
 * Recently seen URLs of a SQLite store, so that the links every page repeats
 * (navigation, footers) are recognised without a trip through the URL index.
 * Two generations of at most `capacity` entries each: an entry used while the
 * young one fills survives the next turnover; the others are forgotten.
 *
 * Only `addUrls` consults it, and a miss means "ask the database"; lifecycle
 * checks always read the database. The store clears it whenever a transaction
 * fails or many URLs change at once (recover, trimWaiting).
 */
import type { FoundUrl } from './sqlite-statements.js';

export class KnownCache {
  #young = new Map<string, FoundUrl>();
  #old = new Map<string, FoundUrl>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(url: string): FoundUrl | undefined {
    const hit = this.#young.get(url);
    if (hit !== undefined) return hit;
    const old = this.#old.get(url);
    if (old !== undefined) this.set(url, old);
    return old;
  }

  set(url: string, row: FoundUrl): void {
    this.#young.set(url, row);
    if (this.#young.size >= this.#capacity) {
      this.#old = this.#young;
      this.#young = new Map();
    }
  }

  /** Updates the state of a cached URL (claim, commit, reclaim). */
  setState(url: string, state: number, priority?: number): void {
    const row = this.#young.get(url) ?? this.#old.get(url);
    if (row === undefined) return;
    row.state = state;
    if (priority !== undefined) row.priority = priority;
  }

  clear(): void {
    this.#young = new Map();
    this.#old = new Map();
  }
}
