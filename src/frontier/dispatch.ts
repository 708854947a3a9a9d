/**
 * Claimed URLs waiting for a fetch slot, handed out in claim order (best first)
 * but skipping URLs whose host already has `perHost` fetches running, so that
 * one slow or rate-limited host does not hold every slot.
 *
 * Domain diversity (DESIGN 1.4): with `diversity` k > 1, any k consecutive fetches
 * started come from k different registrable domains whenever the URLs waiting
 * here allow it; when they do not (fewer domains are left than k), the URL whose
 * domain was fetched longest ago goes next rather than none.
 *
 * Priority gap: with `gap` finite, a URL starts only while its priority is within
 * `gap` of the best URL waiting here or being fetched, so that a host's mediocre
 * URLs do not take fetches (and a page budget) merely because the best URLs' host
 * is busy. The best URL itself always may start.
 *
 * Host readiness: with a `readyAt(host)` schedule (the fetcher's politeness: the host's
 * last start plus its delay), a URL starts only once its host is ready, so that no
 * fetch slot waits out a host's delay while other hosts could use it; `nextReadyAt`
 * says when the first URL held back this way becomes ready, for the caller's timer.
 */
import { hostOf, registrableDomainOfHost } from '../url/index.js';

export interface Dispatchable {
  url: string;
  /** Higher is taken sooner; items without one keep their arrival order. */
  priority?: number;
}

interface Entry<T> {
  item: T;
  host: string;
  domain: string;
}

export class HostDispatch<T extends Dispatchable> {
  readonly #perHost: number;
  readonly #diversity: number;
  #items: Entry<T>[] = [];
  readonly #active = new Map<string, number>();
  /** Domains of the last `diversity − 1` fetches started, oldest first. */
  readonly #recent: string[] = [];
  /** Sequence number of the last fetch started per domain. */
  readonly #lastUse = new Map<string, number>();
  #started = 0;
  readonly #gap: number;
  /** Priorities of the URLs being fetched (those that have one). */
  readonly #running = new Map<string, number>();
  /**
   * Per busy host, the best priority of its URLs sent back to the store by `trim`:
   * better URLs than those here still wait, for their host. When the host's fetch
   * ends they become a promise (a claim brings them back).
   */
  readonly #parked = new Map<string, number>();

  readonly #readyAt: ((host: string, url: string) => number) | undefined;
  readonly #now: () => number;
  #nextReadyAt = Number.POSITIVE_INFINITY;
  #hostsHold = false;

  constructor(
    perHost: number,
    diversity = 1,
    gap = Number.POSITIVE_INFINITY,
    schedule?: { readyAt: (host: string, url: string) => number; now?: () => number },
  ) {
    this.#perHost = perHost;
    this.#diversity = diversity;
    this.#gap = gap;
    this.#readyAt = schedule?.readyAt;
    this.#now = schedule?.now ?? Date.now;
  }

  /**
   * When the earliest URL that the last `take` passed over for its host's delay may
   * start (+∞ when none was): the caller's cue to try again.
   */
  get nextReadyAt(): number {
    return this.#nextReadyAt;
  }

  /** The best priority of links found but not claimed yet, and of those a claim under way holds. */
  #promised = Number.NEGATIVE_INFINITY;
  #claiming = Number.NEGATIVE_INFINITY;

  /**
   * Links with priorities up to `priority` were found (in outcomes not committed yet):
   * with a gap, URLs here wait for the claim that brings them rather than go first.
   */
  promise(priority: number): void {
    if (this.#gap !== Number.POSITIVE_INFINITY && priority > this.#promised)
      this.#promised = priority;
  }

  /** No claim can bring what was promised (the budget is spent): stop waiting for it. */
  forgetPromise(): void {
    this.#promised = Number.NEGATIVE_INFINITY;
    this.#parked.clear();
  }

  /** A claim started: it will bring what was promised so far. */
  claimStarted(): void {
    if (this.#promised > this.#claiming) this.#claiming = this.#promised;
    this.#promised = Number.NEGATIVE_INFINITY;
  }

  /** The claim landed (its URLs are pushed next, or were not better after all). */
  claimLanded(): void {
    this.#claiming = Number.NEGATIVE_INFINITY;
  }

  /** Whether promised links beat every URL here: a claim should bring them. */
  get awaitsClaim(): boolean {
    const promised = Math.max(this.#promised, this.#claiming);
    return promised > (this.#items[0]?.item.priority ?? Number.NEGATIVE_INFINITY);
  }

  /** The lowest priority that may start now (−∞ without a gap). */
  #floor(): number {
    if (this.#gap === Number.POSITIVE_INFINITY) return Number.NEGATIVE_INFINITY;
    let best = Math.max(
      this.#items[0]?.item.priority ?? Number.NEGATIVE_INFINITY,
      this.#promised,
      this.#claiming,
    );
    for (const p of this.#running.values()) if (p > best) best = p;
    for (const p of this.#parked.values()) if (p > best) best = p;
    return best - this.#gap;
  }

  /** Nothing is running or promised: the head starts whatever its priority. */
  #headFree(): boolean {
    return (
      this.#running.size === 0 &&
      this.#promised === Number.NEGATIVE_INFINITY &&
      this.#claiming === Number.NEGATIVE_INFINITY
    );
  }

  get size(): number {
    return this.#items.length;
  }

  /** Adds items, kept in priority order (highest first, ties in arrival order). */
  push(items: readonly T[]): void {
    const list = this.#items;
    for (const item of items) {
      const host = hostOf(item.url) ?? '';
      // The claim brought the host's URLs back (trim parks them again if it is busy).
      this.#parked.delete(host);
      const domain = this.#diversity > 1 ? (registrableDomainOfHost(host) ?? host) : host;
      const e = { item, host, domain };
      const p = item.priority;
      const last = list[list.length - 1];
      if (p === undefined || last === undefined || (last.item.priority ?? p) >= p) {
        list.push(e);
        continue;
      }
      // Binary search for the first entry of lower priority.
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (((list[mid] as Entry<T>).item.priority ?? p) >= p) lo = mid + 1;
        else hi = mid;
      }
      list.splice(lo, 0, e);
    }
  }

  /**
   * Removes and returns the items beyond the best `keep` of each host that has no
   * free slot now, lowest last: claimed URLs that would wait behind their host's
   * fetches, while better URLs may be found meanwhile (the caller puts them back).
   */
  trim(keep: number): T[] {
    const seen = new Map<string, number>();
    const kept: Entry<T>[] = [];
    const out: T[] = [];
    for (const e of this.#items) {
      const n = (seen.get(e.host) ?? 0) + 1;
      seen.set(e.host, n);
      if (n > keep + Math.max(0, this.#perHost - (this.#active.get(e.host) ?? 0))) {
        out.push(e.item);
        const p = e.item.priority;
        if (this.#gap !== Number.POSITIVE_INFINITY && p !== undefined)
          this.#parked.set(e.host, Math.max(p, this.#parked.get(e.host) ?? p));
      } else kept.push(e);
    }
    this.#items = kept;
    return out;
  }

  /**
   * Removes and returns the first item whose host has a free slot (and, with
   * diversity, whose domain is not among the last fetches) and counts it as
   * active; undefined when none can start now.
   */
  take(): T | undefined {
    const items = this.#items;
    let fallback = -1;
    let fallbackUse = Number.POSITIVE_INFINITY;
    const floor = this.#floor();
    const readyAt = this.#readyAt;
    const now = readyAt === undefined ? 0 : this.#now();
    this.#nextReadyAt = Number.POSITIVE_INFINITY;
    let heldByHosts = false;
    let belowFloor = false;
    this.#hostsHold = false;
    for (let i = 0; i < items.length; i++) {
      const e = items[i] as Entry<T>;
      // In priority order: once below the floor, so is the rest (with nothing running,
      // the head starts whatever its priority, so that the crawl goes on).
      if ((i > 0 || !this.#headFree()) && (e.item.priority ?? floor) < floor) {
        belowFloor = true;
        break;
      }
      if ((this.#active.get(e.host) ?? 0) >= this.#perHost) {
        heldByHosts = true;
        continue;
      }
      if (readyAt !== undefined) {
        const at = readyAt(e.host, e.item.url);
        if (at > now) {
          if (at < this.#nextReadyAt) this.#nextReadyAt = at;
          heldByHosts = true;
          continue;
        }
      }
      if (this.#diversity > 1 && this.#recent.includes(e.domain)) {
        const use = this.#lastUse.get(e.domain) ?? -1;
        if (use < fallbackUse) {
          fallback = i;
          fallbackUse = use;
        }
        continue;
      }
      return this.#takeAt(i);
    }
    if (fallback >= 0) return this.#takeAt(fallback);
    this.#hostsHold = heldByHosts && !belowFloor;
    return undefined;
  }

  /**
   * Hosts with at least `n` URLs here: a host-aware claim skips them
   * (`ClaimOptions.hosts.skip`), since more of their URLs would only wait.
   */
  hostsWithAtLeast(n: number): string[] {
    const count = new Map<string, number>();
    for (const e of this.#items) count.set(e.host, (count.get(e.host) ?? 0) + 1);
    const out: string[] = [];
    for (const [host, k] of count) if (k >= n) out.push(host);
    return out;
  }

  /**
   * Whether the last `take` that found nothing to start was held back only by the
   * hosts of the URLs here (busy, or waiting out their delay), not by the priority
   * floor: URLs of other hosts could start, if a claim brought them.
   */
  get hostsHold(): boolean {
    return this.#hostsHold;
  }

  #takeAt(i: number): T {
    const items = this.#items;
    const e = items[i] as Entry<T>;
    this.#active.set(e.host, (this.#active.get(e.host) ?? 0) + 1);
    if (this.#gap !== Number.POSITIVE_INFINITY && e.item.priority !== undefined)
      this.#running.set(e.item.url, e.item.priority);
    if (i === 0) items.shift();
    else items.splice(i, 1);
    if (this.#diversity > 1) {
      this.#lastUse.set(e.domain, this.#started++);
      const at = this.#recent.indexOf(e.domain);
      if (at >= 0) this.#recent.splice(at, 1);
      this.#recent.push(e.domain);
      if (this.#recent.length > this.#diversity - 1) this.#recent.shift();
    }
    return e.item;
  }

  /** A fetch of `url`'s host ended. */
  release(url: string): void {
    this.#running.delete(url);
    const host = hostOf(url) ?? '';
    const n = this.#active.get(host) ?? 0;
    if (n <= 1) this.#active.delete(host);
    else this.#active.set(host, n - 1);
    // The host has a free slot: its URLs sent back to the store should come back now.
    const parked = this.#parked.get(host);
    if (parked !== undefined) {
      this.#parked.delete(host);
      this.promise(parked);
    }
  }

  /** Removes and returns every item not yet taken. */
  drain(): T[] {
    const out = this.#items.map((e) => e.item);
    this.#parked.clear();
    this.#items = [];
    return out;
  }
}
