/**
 * The URLs of the memory store: a map by URL, a list by id, and heaps of
 * waiting URLs, best first. A raised, reprioritized or requeued URL gets a new
 * heap entry; entries that no longer match their URL (claimed, given another
 * priority since, trimmed) are skipped when they surface, and swept out whenever a
 * heap has doubled since its last sweep. An entry whose URL has come back to the
 * entry's priority is live again beside the newer one: both sort alike, and the
 * first claimed makes the other stale.
 *
 * URLs put back by a failed attempt wait outside the queues, in a heap by retry
 * time, until a claim at or after that time puts them in.
 *
 * Every queue claimed from (`id % of === index`; the plain claim is queue 0 of 1)
 * has a heap of its own, built from the waiting URLs when first claimed from and
 * fed by every later add. The heaps of the last `PARTITIONS` values of `of`
 * claimed with are kept; an older one is rebuilt if it is used again.
 */

import { InvalidOptionError } from '../errors/index.js';
import { Heap } from './heap.js';
import type { HostPicker } from './host-claim.js';
import type { Tally } from './tally.js';
import type {
  ClaimedUrl,
  NewUrl,
  PriorityChange,
  UrlRecord,
  UrlState,
  WaitingUrl,
} from './types.js';

interface Entry {
  priority: number;
  rec: UrlRecord;
}

const before = (a: Entry, b: Entry) =>
  a.priority > b.priority || (a.priority === b.priority && a.rec.id < b.rec.id);

/** A URL waiting for its retry time `at`. */
interface Retry {
  at: number;
  rec: UrlRecord;
}

/** Values of `of` whose queues are kept. */
const PARTITIONS = 4;
/** Heap size below which stale entries are not swept out. */
const SWEEP_MIN = 1024;

/** The waiting URLs of one queue. */
class Queue {
  readonly heap = new Heap<Entry>(before);
  /** The heap size that triggers the next sweep. */
  limit = SWEEP_MIN;
}

export class MemoryFrontier {
  /** Every known URL, in discovery order. */
  readonly urls = new Map<string, UrlRecord>();
  /** The same records in id order (ids grow with discovery), for lookups by id. */
  #byId: UrlRecord[] = [];
  /** The queues by `of`, then by index; the most recently claimed from last. */
  readonly #parts = new Map<number, Map<number, Queue>>([[1, new Map([[0, new Queue()]])]]);
  /** URLs waiting for their retry time, earliest first (stale entries skipped). */
  readonly #retries = new Heap<Retry>((a, b) => a.at < b.at);
  #nextId = 1;

  readonly #isLive = (e: Entry): boolean =>
    e.rec.state === 'waiting' &&
    e.rec.retryAt === null &&
    e.rec.priority === e.priority &&
    this.urls.get(e.rec.url) === e.rec;

  readonly #isRetry = (r: Retry): boolean =>
    r.rec.state === 'waiting' && r.rec.retryAt === r.at && this.urls.get(r.rec.url) === r.rec;

  /**
   * Throws unless every explicit parent is known or added earlier by the same call
   * or batch (`pending`: the states the batch's earlier items give); notes the
   * unknown items in `pending` as waiting.
   */
  checkParents(where: string, items: readonly NewUrl[], pending: Map<string, UrlState>): void {
    items.forEach((it, i) => {
      if (it.parent !== undefined && !this.urls.has(it.parent) && !pending.has(it.parent)) {
        throw new InvalidOptionError(`${where}[${i}].parent: ${it.parent} is not a known URL`);
      }
      if (!this.urls.has(it.url) && !pending.has(it.url)) pending.set(it.url, 'waiting');
    });
  }

  /**
   * Records a new URL in `state` (a redirect's hop or target), taking depth,
   * priority, value, parent, anchor and context from the claimed URL `like`.
   */
  insert(url: string, like: UrlRecord, state: UrlState, discoveredAt: number): UrlRecord {
    const rec: UrlRecord = {
      ...like,
      id: this.#nextId++,
      url,
      state,
      discoveredAt,
      redirectTo: null,
      attempts: 0,
      retryAt: null,
    };
    this.urls.set(url, rec);
    this.#byId.push(rec);
    if (state === 'waiting') this.#push(rec);
    return rec;
  }

  /**
   * Queues the unknown URLs, raises known waiting ones (priority and value);
   * returns how many were new.
   */
  add(items: readonly NewUrl[], defaultParent: string | null, t: Tally): number {
    const now = Date.now();
    let added = 0;
    for (const it of items) {
      const known = this.urls.get(it.url);
      if (known !== undefined) {
        if (known.state === 'waiting' && it.priority > known.priority) {
          known.priority = it.priority;
          known.value = it.value ?? 0;
          if (it.context != null) known.context = it.context;
          this.#push(known);
        }
        continue;
      }
      const rec: UrlRecord = {
        id: this.#nextId++,
        url: it.url,
        state: 'waiting',
        depth: it.depth,
        priority: it.priority,
        value: it.value ?? 0,
        parent: it.parent ?? defaultParent,
        anchor: it.anchor ?? null,
        context: it.context ?? null,
        discoveredAt: it.discoveredAt ?? now,
        redirectTo: null,
        attempts: 0,
        retryAt: null,
      };
      this.urls.set(it.url, rec);
      this.#byId.push(rec);
      this.#push(rec);
      t.added(it.url);
      added++;
    }
    return added;
  }

  /**
   * Moves up to n waiting URLs (of one queue, if given) to processing, best first;
   * URLs put back by a failed attempt once their retry time is `now`.
   */
  claim(
    n: number,
    queue: { index: number; of: number } | undefined,
    hosts: HostPicker | undefined,
    now: number,
  ): ClaimedUrl[] {
    this.#releaseDue(now);
    const { heap } = queue === undefined ? this.#queue(1, 0) : this.#queue(queue.of, queue.index);
    const out: ClaimedUrl[] = [];
    /** Entries looked at and passed over for their host: back on the heap afterwards. */
    const passed: Entry[] = [];
    while (out.length < n && (hosts === undefined || hosts.more)) {
      const e = heap.pop();
      if (e === undefined) break;
      if (!this.#isLive(e)) continue;
      if (hosts !== undefined && !hosts.take(e.rec.url)) {
        passed.push(e);
        continue;
      }
      const r = e.rec;
      r.state = 'processing';
      out.push({
        id: r.id,
        url: r.url,
        depth: r.depth,
        priority: r.priority,
        value: r.value,
        parent: r.parent,
        context: r.context,
        attempts: r.attempts,
      });
    }
    for (const e of passed) heap.push(e);
    return out;
  }

  /** A processing URL's failed attempt: back to waiting, out of the queues until `at`. */
  retry(rec: UrlRecord, at: number): void {
    rec.state = 'waiting';
    rec.attempts++;
    rec.retryAt = at;
    this.#retries.push({ at, rec });
  }

  /** A URL in error back to waiting, its attempts reset. */
  requeueError(rec: UrlRecord): void {
    rec.state = 'waiting';
    rec.attempts = 0;
    rec.retryAt = null;
    this.#push(rec);
  }

  /** The earliest retry time of a waiting URL; null when none waits for one. */
  nextRetryAt(): number | null {
    for (;;) {
      const top = this.#retries.peek();
      if (top === undefined) return null;
      if (this.#isRetry(top)) return top.at;
      this.#retries.pop();
    }
  }

  /** Puts the URLs whose retry time has come in their queues. */
  #releaseDue(now: number): void {
    for (;;) {
      const top = this.#retries.peek();
      if (top === undefined || top.at > now) return;
      this.#retries.pop();
      if (!this.#isRetry(top)) continue;
      top.rec.retryAt = null;
      this.#push(top.rec);
    }
  }

  /** Puts a processing URL back to waiting. */
  requeue(rec: UrlRecord, priority: number | undefined): void {
    rec.state = 'waiting';
    if (priority !== undefined) rec.priority = priority;
    this.#push(rec);
  }

  /** The waiting URLs with an id above `afterId`, in id order, at most `limit`. */
  scanWaiting(afterId: number, limit: number): WaitingUrl[] {
    const out: WaitingUrl[] = [];
    const a = this.#byId;
    for (let i = this.#firstAbove(afterId); i < a.length && out.length < limit; i++) {
      const r = a[i] as UrlRecord;
      if (r.state !== 'waiting') continue;
      out.push({
        id: r.id,
        url: r.url,
        depth: r.depth,
        priority: r.priority,
        value: r.value,
        anchor: r.anchor,
        context: r.context,
      });
    }
    return out;
  }

  /** Sets the priority (and value) of the waiting URLs among `changes`; returns how many. */
  reprioritize(changes: Iterable<PriorityChange>): number {
    let n = 0;
    for (const c of changes) {
      const rec = this.#byId[this.#firstAbove(c.id - 1)];
      if (rec?.id !== c.id || rec.state !== 'waiting') continue;
      if (c.value !== undefined) rec.value = c.value;
      if (rec.priority !== c.priority) {
        rec.priority = c.priority;
        this.#push(rec);
      }
      n++;
    }
    return n;
  }

  /** The index in `#byId` of the first record with an id above `id`. */
  #firstAbove(id: number): number {
    const a = this.#byId;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((a[mid] as UrlRecord).id <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Forgets all but the best `max` waiting URLs (those waiting for their retry time
   * are kept, and count against `max`); returns how many were dropped.
   */
  trim(max: number): number {
    const all = [...this.urls.values()].filter((r) => r.state === 'waiting');
    if (all.length <= max) return 0;
    const waiting = all.filter((r) => r.retryAt === null);
    waiting.sort((a, b) => b.priority - a.priority || a.id - b.id);
    const dropped = waiting.slice(Math.max(0, waiting.length - (all.length - max)));
    for (const r of dropped) this.urls.delete(r.url);
    this.#byId = this.#byId.filter((r) => this.urls.get(r.url) === r);
    for (const queues of this.#parts.values()) {
      for (const q of queues.values()) this.#sweep(q);
    }
    return dropped.length;
  }

  /** Adds a waiting URL to every queue it belongs to (not before its retry time). */
  #push(rec: UrlRecord): void {
    if (rec.retryAt !== null) return;
    const e: Entry = { priority: rec.priority, rec };
    for (const [of, queues] of this.#parts) {
      const q = queues.get(rec.id % of);
      if (q === undefined) continue;
      q.heap.push(e);
      if (q.heap.size > q.limit) this.#sweep(q);
    }
  }

  /** Drops the stale entries of a queue. */
  #sweep(q: Queue): void {
    q.heap.retain(this.#isLive);
    q.limit = Math.max(SWEEP_MIN, 2 * q.heap.size);
  }

  /** Queue `index` of `of`, built from the waiting URLs if it is not kept. */
  #queue(of: number, index: number): Queue {
    let queues = this.#parts.get(of);
    if (queues === undefined) {
      queues = new Map();
      if (this.#parts.size >= PARTITIONS) {
        this.#parts.delete(this.#parts.keys().next().value as number);
      }
    } else {
      this.#parts.delete(of);
    }
    this.#parts.set(of, queues);
    let q = queues.get(index);
    if (q === undefined) {
      q = new Queue();
      for (const rec of this.urls.values()) {
        if (rec.state === 'waiting' && rec.retryAt === null && rec.id % of === index) {
          q.heap.push({ priority: rec.priority, rec });
        }
      }
      q.limit = Math.max(SWEEP_MIN, 2 * q.heap.size);
      queues.set(index, q);
    }
    return q;
  }
}
