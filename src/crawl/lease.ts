/**
 * The crawl's claims on its store, held under a lease (store/lease.ts): opened
 * when the run starts, renewed while it lives, closed when it ends. Every claim,
 * commit and reclaim of the crawl goes through it, so the store knows the owner of
 * every URL in processing and `recover` (by this run or any other) takes back only
 * the claims of runs that are gone.
 *
 * A claim lost all the same (the run stalled past its lease and another run took
 * the URL back) is never a crash: its commit is refused by the store, and counted
 * here (`lostClaims`); a renewal that finds the lease gone opens a new one.
 *
 * Each renewal also records the pages the run has fetched so far (run-pace.ts), for
 * the pace `status` shows: the pages it committed and the revisits that got an answer.
 */
import { hostname } from 'node:os';
import { LeaseLostError } from '../errors/index.js';
import type {
  ClaimedUrl,
  ClaimOptions,
  DueRevisit,
  NewUrl,
  Outcome,
  Store,
  VisitOutcome,
} from '../store/index.js';
import { type PaceMark, reportPace } from './run-pace.js';

/** How long a lease holds without renewal. */
export const LEASE_MS = 60_000;
/** How often it is renewed, and leases lost by other runs are recovered. */
export const RENEW_MS = 15_000;

export class CrawlLease {
  readonly #store: Store;
  readonly #startedAt = Date.now();
  #id: number;
  #timer: NodeJS.Timeout | null = null;
  #renewing: Promise<void> = Promise.resolve();
  /** Outcomes the store refused because their claim was lost. */
  lostClaims = 0;
  /** Times the lease itself was found lost (and a new one opened). */
  lostLeases = 0;
  /** Pages the run has fetched and recorded, and the last count reported. */
  #pages = 0;
  #reported: PaceMark = { pages: 0, at: this.#startedAt };

  private constructor(store: Store, id: number) {
    this.#store = store;
    this.#id = id;
  }

  /**
   * Closes the leases this process left open on `store` (a crawl whose thread died,
   * an earlier run in the same process): call only while holding the store's run
   * lock, when no other crawl of this process can be using it. Returns how many
   * claims went back to waiting.
   */
  static async closeStale(store: Store): Promise<number> {
    let n = 0;
    for (const l of await store.leases()) {
      if (l.host === hostname() && l.pid === process.pid) n += await store.closeLease(l.id);
    }
    return n;
  }

  /**
   * Whether another run on the store (another open lease) holds claims beyond the
   * `mine` this run still holds: a run that joined it waits for its links rather than
   * end. The claims of runs that are gone are taken back first.
   */
  async othersAtWork(mine: number): Promise<boolean> {
    await this.#store.recover();
    if (!(await this.#store.leases()).some((l) => l.id !== this.#id)) return false;
    return (await this.#store.counts()).processing > mine;
  }

  /** Opens the run's lease and starts renewing it. */
  static async open(store: Store): Promise<CrawlLease> {
    const lease = new CrawlLease(store, 0);
    lease.#id = (await store.openLease(lease.#owner(), Date.now() + LEASE_MS)).id;
    lease.#timer = setInterval(() => {
      lease.renew().catch(() => {});
    }, RENEW_MS);
    lease.#timer.unref();
    return lease;
  }

  #owner() {
    return { host: hostname(), pid: process.pid, startedAt: this.#startedAt };
  }

  /**
   * Renews the lease, takes back the claims of runs that are gone, and records the
   * pages fetched so far: what the timer does every {@link RENEW_MS}, after any
   * renewal under way.
   */
  renew(): Promise<void> {
    const r = this.#renewing.then(() => this.#renew());
    this.#renewing = r.catch(() => {});
    return r;
  }

  async #renew(): Promise<void> {
    if (!(await this.#store.renewLease(this.#id, Date.now() + LEASE_MS))) await this.#reopen();
    await this.#store.recover();
    this.#reported = await reportPace(this.#store, this.#id, this.#pages, this.#reported);
  }

  async #reopen(): Promise<void> {
    this.lostLeases++;
    this.#id = (await this.#store.openLease(this.#owner(), Date.now() + LEASE_MS)).id;
    this.#reported = { pages: this.#pages, at: Date.now() };
  }

  /** The store's `claim` under the lease (a new lease when it was lost). */
  async claim(n: number, options?: ClaimOptions): Promise<ClaimedUrl[]> {
    try {
      return await this.#store.claim(n, { ...options, lease: this.#id });
    } catch (e) {
      if (!(e instanceof LeaseLostError)) throw e;
      await this.#reopen();
      return this.#store.claim(n, { ...options, lease: this.#id });
    }
  }

  /** The store's `commit` under the lease; returns the URLs of refused outcomes. */
  async commit(outcomes: readonly Outcome[]): Promise<ReadonlySet<string>> {
    const { refused } = await this.#store.commit(outcomes, { lease: this.#id });
    this.lostClaims += refused.length;
    const lost = new Set(refused);
    for (const o of outcomes) {
      if ((o.state === 'complete' || o.state === 'discard') && !lost.has(o.url)) this.#pages++;
    }
    return lost;
  }

  /** The store's `addUrls` (URLs the crawl queues outside a page's outcome). */
  addUrls(items: readonly NewUrl[]): Promise<number> {
    return this.#store.addUrls(items);
  }

  /** The store's `claimDue` under the lease (a new lease when it was lost). */
  async claimDue(n: number, now: number): Promise<DueRevisit[]> {
    try {
      return await this.#store.claimDue(n, { now, lease: this.#id });
    } catch (e) {
      if (!(e instanceof LeaseLostError)) throw e;
      await this.#reopen();
      return this.#store.claimDue(n, { now, lease: this.#id });
    }
  }

  /**
   * The store's `recordVisits` under the lease; returns the URLs of refused visits
   * and how many of the visits' new URLs were queued.
   */
  async recordVisits(
    visits: readonly VisitOutcome[],
  ): Promise<{ refused: ReadonlySet<string>; added: number }> {
    const { refused, added } = await this.#store.recordVisits(visits, { lease: this.#id });
    this.lostClaims += refused.length;
    const lost = new Set(refused);
    for (const v of visits) if (v.change !== 'failed' && !lost.has(v.url)) this.#pages++;
    return { refused: lost, added };
  }

  /** Gives back revisits claimed under the lease and not visited. */
  releaseDue(urls: readonly string[]): Promise<number> {
    return this.#store.releaseDue(urls, { lease: this.#id });
  }

  /** The store's `reclaim` of URLs this lease holds; returns how many went back. */
  reclaim(urls: readonly string[]): Promise<number> {
    return this.#store.reclaim(urls, { lease: this.#id });
  }

  /** Stops renewing and closes the lease (its remaining claims go back to waiting). */
  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#renewing;
    await this.#store.closeLease(this.#id);
  }
}
