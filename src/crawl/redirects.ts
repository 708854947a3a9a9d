/**
 * Redirects in a crawl: the target of a redirect is the page. A fetch follows a
 * redirect only to a URL this run has not claimed or reached yet (and, in a resumed
 * run or on a shared store, that the store does not have fetched or claimed: the
 * engine asks it, engine.ts `#follow`); otherwise it stops, and the redirecting URL
 * is recorded as a redirect to a URL the crawl already has (the store then keeps the
 * page under the final URL, once).
 *
 * A URL claimed while another fetch is following a redirect to it is held until
 * that fetch ends: it then takes the page that fetch brought (so the page is
 * fetched once and stored under its own claim), or is sent if that fetch failed.
 */
import type { FetchResult, RedirectHop } from '../fetch/index.js';
import type { ClaimedUrl, RedirectStep } from '../store/index.js';
import { SeenUrls } from './seen.js';

export interface EndedFetch {
  takes: ClaimedUrl | null;
  hops: { claim: ClaimedUrl; steps: RedirectStep[] }[];
  send: ClaimedUrl[];
}

export class RedirectTracker {
  /** URLs claimed or reached through a redirect by this run (hashed; may forget the oldest). */
  readonly #taken = new SeenUrls();
  /** Redirect target → the claimed URL whose fetch is following it. */
  readonly #following = new Map<string, string>();
  /** Targets claimed while being followed, held until the follower ends. */
  readonly #held = new Map<string, ClaimedUrl>();

  /** URLs held until the fetch following a redirect to them ends. */
  get size(): number {
    return this.#held.size;
  }

  /** A URL was claimed: false when it must be held (a fetch is following a redirect to it). */
  claimed(c: ClaimedUrl): boolean {
    if (this.#following.has(c.url)) {
      this.#held.set(c.url, c);
      return false;
    }
    this.#taken.add(c.url);
    return true;
  }

  /** The `follow` hook of the fetch of `from`: whether to follow a redirect to `location`. */
  follow(from: string, location: string): boolean {
    if (this.#taken.has(location) || this.#following.has(location)) return false;
    this.#following.set(location, from);
    return true;
  }

  /**
   * The fetch of `from` ended (`res` null when it failed). Returns the claim held
   * for its final URL, which takes the page (`takes`); claims held for hops it
   * passed, each with the steps from it on (`hops`: recorded as redirects); and
   * claims it did not reach, to be sent as usual (`send`).
   */
  ended(from: string, res: FetchResult | null): EndedFetch {
    const out: EndedFetch = { takes: null, hops: [], send: [] };
    if (this.#following.size === 0) return out;
    const steps = res === null ? [] : redirectSteps(res);
    for (const [target, follower] of this.#following) {
      if (follower !== from) continue;
      this.#following.delete(target);
      this.#taken.add(target);
      const held = this.#held.get(target);
      if (held === undefined) continue;
      this.#held.delete(target);
      const at = steps.findIndex((s) => s.url === target);
      if (res !== null && res.finalUrl === target && res.unfollowed === undefined) out.takes = held;
      else if (at >= 0) out.hops.push({ claim: held, steps: steps.slice(at) });
      else out.send.push(held);
    }
    return out;
  }

  /** Every held claim, taken out (the run is stopping). */
  drain(): ClaimedUrl[] {
    const out = [...this.#held.values()];
    this.#held.clear();
    return out;
  }
}

/** The store's steps of a fetch's redirects, the declined one last. */
export function redirectSteps(res: FetchResult): RedirectStep[] {
  const hops: RedirectHop[] =
    res.unfollowed === undefined ? res.redirects : [...res.redirects, res.unfollowed];
  return hops.map((h) => ({ url: h.url, status: h.status, location: h.location }));
}
