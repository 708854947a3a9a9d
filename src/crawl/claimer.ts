/**
 * Keeps the crawl's dispatch queue filled from the store, in the background:
 * fetches go on starting while the store (perhaps busy with a commit) answers a
 * claim. Claims are small (the frontier's order is only as fresh as the last
 * claim), made only when something may have changed since the last one, and
 * host-aware when no page budget is spent (the best URLs of hosts not already
 * queued). Claimed URLs that would only wait behind their host go back to waiting.
 */
import { claimFromQueues, type HostDispatch } from '../frontier/index.js';
import type { ClaimedUrl, ClaimOptions, HostClaim, Outcome } from '../store/index.js';
import type { CrawlLease } from './lease.js';
import type { Recorder } from './recorder.js';
import type { SeenUrls } from './seen.js';
import type { Settler } from './settle.js';
import type { PageEvent } from './types.js';

/** Claimed URLs kept per host beyond its free fetch slots (the rest go back to waiting). */
const HOST_BACKLOG = 1;
/** Claimed URLs the fetch queue holds at most for hosts waiting out their delay. */
const MAX_DISPATCH = 1024;
/** Waiting URLs a host-aware claim looks at, at most. */
const CLAIM_SCAN_MAX = 8192;
/** …and at least (a small claim must still reach past the few hosts atop the frontier). */
const CLAIM_SCAN_MIN = 4096;

/** What the claimer works with: the engine's stages and a few of its figures. */
export interface ClaimerParts {
  lease: CrawlLease;
  dispatch: HostDispatch<ClaimedUrl>;
  settle: Settler;
  rec: Recorder;
  /** The page rules' cache of URLs sent (read each time: rules are kept current). */
  seen: () => SeenUrls;
  concurrency: number;
  perHost: number;
  /** Frontier partitions claimed in turn (multi-queue), 1 otherwise. */
  queues: number;
  /** Claims with regard to hosts (no priority gap: time, not fetches, is spent). */
  hostClaims: boolean;
  /** Fetches in flight. */
  active: () => number;
  /** Fetches not yet spoken for under the page budget. */
  budget: () => number;
  /** Commits pending outcomes. */
  flush: () => Promise<void>;
  /** Records an outcome decided without fetching (the settler's). */
  record: (r: { outcome: Outcome; event: PageEvent }) => void;
  wake: () => void;
}

export class Claimer {
  readonly #p: ClaimerParts;
  readonly #batch: number;
  #claiming: Promise<void> | null = null;
  #asked = 0;
  #reclaimPending: Promise<void> = Promise.resolve();
  /** The store had nothing to claim; reset by every commit (which may add URLs). */
  dry = false;
  /** A commit or an ended fetch since the last claim: a claim may find something new. */
  useful = true;

  constructor(p: ClaimerParts) {
    this.#p = p;
    this.#batch = Math.max(8, Math.min(p.concurrency * 2, 1024));
  }

  /** A claim is under way. */
  get busy(): boolean {
    return this.#claiming !== null;
  }

  /** URLs asked for by the claim under way (0 when none). */
  get asked(): number {
    return this.#asked;
  }

  /** Resolves when the claim under way (if any) has landed. */
  async landed(): Promise<void> {
    await this.#claiming;
  }

  /** Resolves when every URL put back has reached the store. */
  async putBackDone(): Promise<void> {
    await this.#reclaimPending;
  }

  /** Claimed URLs that would only wait: back to waiting, to be claimed again in order. */
  putBack(urls: ClaimedUrl[]): void {
    if (urls.length === 0) return;
    const { lease, rec } = this.#p;
    for (const c of urls) this.#p.seen().requeued(c.url, c.priority);
    this.#reclaimPending = this.#reclaimPending
      .then(() => lease.reclaim(urls.map((c) => c.url)))
      .then(
        (n) => {
          rec.f.counts.processing -= n;
          rec.f.counts.waiting += n;
        },
        (e: unknown) => rec.fail(e),
      );
  }

  /** Starts a claim when the dispatch queue wants one and `spare` fetches are left. */
  refill(spare: number): void {
    if (this.#claiming !== null) return;
    const { dispatch, rec } = this.#p;
    let budget = spare;
    if (budget <= 0 && dispatch.awaitsClaim && dispatch.size > 0) {
      // The budget is held by URLs worse than links just found: those take their place.
      this.putBack(dispatch.drain());
      budget = this.#p.budget();
    }
    if (budget <= 0) {
      dispatch.forgetPromise();
      return;
    }
    // Links found beat every URL here (under a priority gap): claim them now.
    if (!dispatch.awaitsClaim) {
      if (this.dry) return;
      // Enough here, unless free slots wait on these URLs' hosts alone (busy, or in
      // their delay) while other hosts could fetch: then claim those hosts' URLs too.
      const active = this.#p.active();
      const hostsHold =
        active < this.#p.concurrency && dispatch.hostsHold && dispatch.size < MAX_DISPATCH;
      if (dispatch.size >= this.#batch / 2 && !hostsHold) return;
      // Nothing new since the last claim: wait for a commit or an ended fetch (never
      // while nothing is in flight, so that the crawl cannot stall).
      if (!this.useful && (active > 0 || dispatch.size > 0)) return;
    }
    const n = Math.min(Math.max(this.#batch - dispatch.size, this.#batch / 2), budget);
    this.#asked = n;
    // Anything that happens from now on (a commit, an ended fetch) makes the next claim useful.
    this.useful = false;
    dispatch.claimStarted();
    // Outcomes not committed yet hold links the claim should see: commit them first.
    const fresh = rec.pending > 0;
    this.#claiming = (fresh ? this.#p.flush().then(() => this.#claim(n)) : this.#claim(n))
      .then(
        (got) => {
          dispatch.claimLanded();
          rec.f.counts.waiting -= got.length;
          rec.f.counts.processing += got.length;
          const seen = this.#p.seen();
          for (const c of got) seen.claimed(c.url);
          if (got.length > 0) {
            const { send, records } = this.#p.settle.claimed(got);
            dispatch.push(send);
            for (const r of records) this.#p.record(r);
            // URLs that would only wait behind their host's fetches go back to waiting,
            // so that better links found meanwhile pass them.
            this.putBack(dispatch.trim(HOST_BACKLOG));
          } else this.dry = true;
        },
        (e: unknown) => {
          dispatch.claimLanded();
          rec.fail(e);
        },
      )
      .finally(() => {
        this.#claiming = null;
        this.#asked = 0;
        this.#p.wake();
      });
  }

  /**
   * Claims `n` URLs, best first; with several queues, a share from each
   * (frontier/queues.ts). Without a priority gap (time, not fetches, is spent) the
   * claim is host-aware: the best URLs of hosts that do not have their share here
   * already. Under a gap the best come whatever their hosts (other hosts' worse
   * URLs could not start anyway).
   */
  #claim(n: number): Promise<ClaimedUrl[]> {
    const { lease, dispatch, perHost, queues } = this.#p;
    const hosts: HostClaim | undefined = this.#p.hostClaims
      ? {
          perHost,
          skip: dispatch.hostsWithAtLeast(perHost),
          scan: Math.max(CLAIM_SCAN_MIN, Math.min(CLAIM_SCAN_MAX, 32 * n)),
        }
      : undefined;
    const options = (queue?: { index: number; of: number }): ClaimOptions | undefined =>
      queue === undefined && hosts === undefined
        ? undefined
        : { ...(queue === undefined ? {} : { queue }), ...(hosts === undefined ? {} : { hosts }) };
    if (queues === 1) return lease.claim(n, options());
    return claimFromQueues((k, queue) => lease.claim(k, options(queue)), n, queues);
  }
}
