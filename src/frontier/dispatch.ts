/**
 * Claimed URLs waiting for a fetch slot, handed out in claim order (best first)
 * but skipping URLs whose host already has `perHost` fetches running, so that
 * one slow or rate-limited host does not hold every slot.
 */
import { hostOf } from '../url/index.js';

export interface Dispatchable {
  url: string;
}

export class HostDispatch<T extends Dispatchable> {
  readonly #perHost: number;
  #items: { item: T; host: string }[] = [];
  readonly #active = new Map<string, number>();

  constructor(perHost: number) {
    this.#perHost = perHost;
  }

  get size(): number {
    return this.#items.length;
  }

  push(items: readonly T[]): void {
    for (const item of items) this.#items.push({ item, host: hostOf(item.url) ?? '' });
  }

  /**
   * Removes and returns the first item whose host has a free slot and counts it
   * as active; undefined when none can start now.
   */
  take(): T | undefined {
    const items = this.#items;
    for (let i = 0; i < items.length; i++) {
      const e = items[i] as { item: T; host: string };
      const n = this.#active.get(e.host) ?? 0;
      if (n < this.#perHost) {
        this.#active.set(e.host, n + 1);
        if (i === 0) items.shift();
        else items.splice(i, 1);
        return e.item;
      }
    }
    return undefined;
  }

  /** A fetch of `url`'s host ended. */
  release(url: string): void {
    const host = hostOf(url) ?? '';
    const n = this.#active.get(host) ?? 0;
    if (n <= 1) this.#active.delete(host);
    else this.#active.set(host, n - 1);
  }

  /** Removes and returns every item not yet taken. */
  drain(): T[] {
    const out = this.#items.map((e) => e.item);
    this.#items = [];
    return out;
  }
}
