/**
 * The URLs of the memory store: a map by URL and a heap of waiting URLs, best
 * first. A raised or requeued URL gets a new heap entry; entries that no longer
 * match their URL (claimed, raised since, trimmed) are skipped when they surface.
 */
import { InvalidOptionError } from '../errors/index.js';
import { Heap } from './heap.js';
import type { Tally } from './tally.js';
import type { ClaimedUrl, NewUrl, UrlRecord } from './types.js';

interface Entry {
  priority: number;
  rec: UrlRecord;
}

const before = (a: Entry, b: Entry) =>
  a.priority > b.priority || (a.priority === b.priority && a.rec.id < b.rec.id);

export class MemoryFrontier {
  /** Every known URL, in discovery order. */
  readonly urls = new Map<string, UrlRecord>();
  readonly #heap = new Heap<Entry>(before);
  #nextId = 1;

  #isLive(e: Entry): boolean {
    return (
      e.rec.state === 'waiting' &&
      e.rec.priority === e.priority &&
      this.urls.get(e.rec.url) === e.rec
    );
  }

  /** Throws unless every explicit parent is known or added earlier by the same call. */
  checkParents(where: string, items: readonly NewUrl[], added: Set<string>): void {
    items.forEach((it, i) => {
      if (it.parent !== undefined && !this.urls.has(it.parent) && !added.has(it.parent)) {
        throw new InvalidOptionError(`${where}[${i}].parent: ${it.parent} is not a known URL`);
      }
      if (!this.urls.has(it.url)) added.add(it.url);
    });
  }

  /** Queues the unknown URLs, raises known waiting ones; returns how many were new. */
  add(items: readonly NewUrl[], defaultParent: string | null, t: Tally): number {
    const now = Date.now();
    let added = 0;
    for (const it of items) {
      const known = this.urls.get(it.url);
      if (known !== undefined) {
        if (known.state === 'waiting' && it.priority > known.priority) {
          known.priority = it.priority;
          this.#heap.push({ priority: it.priority, rec: known });
        }
        continue;
      }
      const rec: UrlRecord = {
        id: this.#nextId++,
        url: it.url,
        state: 'waiting',
        depth: it.depth,
        priority: it.priority,
        parent: it.parent ?? defaultParent,
        anchor: it.anchor ?? null,
        discoveredAt: it.discoveredAt ?? now,
      };
      this.urls.set(it.url, rec);
      this.#heap.push({ priority: rec.priority, rec });
      t.added(it.url);
      added++;
    }
    return added;
  }

  /** Moves up to n waiting URLs to processing, best first. */
  claim(n: number): ClaimedUrl[] {
    const out: ClaimedUrl[] = [];
    while (out.length < n) {
      const e = this.#heap.pop();
      if (e === undefined) break;
      if (!this.#isLive(e)) continue;
      const r = e.rec;
      r.state = 'processing';
      out.push({ id: r.id, url: r.url, depth: r.depth, priority: r.priority, parent: r.parent });
    }
    return out;
  }

  /** Puts a processing URL back to waiting. */
  requeue(rec: UrlRecord, priority: number | undefined): void {
    rec.state = 'waiting';
    if (priority !== undefined) rec.priority = priority;
    this.#heap.push({ priority: rec.priority, rec });
  }

  /** Forgets all but the best `max` waiting URLs; returns how many were dropped. */
  trim(max: number): number {
    const waiting = [...this.urls.values()].filter((r) => r.state === 'waiting');
    if (waiting.length <= max) return 0;
    waiting.sort((a, b) => b.priority - a.priority || a.id - b.id);
    const dropped = waiting.slice(max);
    for (const r of dropped) this.urls.delete(r.url);
    this.#heap.clear();
    for (const rec of waiting.slice(0, max)) this.#heap.push({ priority: rec.priority, rec });
    return dropped.length;
  }
}
