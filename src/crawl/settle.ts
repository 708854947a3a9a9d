/**
 * What becomes of a claimed URL around its fetch, apart from judging the page: an
 * unreachable host holds its URLs (parking.ts), a redirect is followed only to a
 * URL the run does not have, a redirecting URL is recorded as a redirect to the page
 * it led to (redirects.ts), and a failure is an attempt to be tried again when it is
 * transient and the URL has attempts left (retry.ts). The engine hands each claim and
 * each ended fetch here and gets back what to record and what to send.
 */
import { AbortedError } from '../errors/index.js';
import { bodyTooLarge, classifyFailure, type FetchResult } from '../fetch/index.js';
import type { HostHealthOptions } from '../frontier/index.js';
import type { ClaimedUrl, Outcome } from '../store/index.js';
import { failure, redirectOutcome } from './page.js';
import { HostParking } from './parking.js';
import { RedirectTracker, redirectSteps } from './redirects.js';
import { type RetryRule, retryAt } from './retry.js';
import { errorText } from './signals.js';
import type { PageEvent } from './types.js';

export type Recorded = { outcome: Outcome; event: PageEvent };

/**
 * What the crawl makes of a response: a redirect it did not follow, an HTTP error
 * status, a body cut at the byte cap, or a page to judge.
 */
export function responseKind(r: FetchResult): 'unfollowed' | 'status' | 'cut' | 'page' {
  if (r.unfollowed !== undefined) return 'unfollowed';
  if (r.status < 200 || r.status >= 300) return 'status';
  return bodyTooLarge(r) === undefined ? 'page' : 'cut';
}

/** Judges a response of a claimed URL into its outcome (page.ts through the engine). */
export type JudgePage = (owner: ClaimedUrl, res: FetchResult, claimed: ClaimedUrl) => Recorded;

export interface Settled {
  /** Outcomes to commit. */
  records: Recorded[];
  /** Claims to send (again). */
  send: ClaimedUrl[];
  /** Claims to put back to waiting (the run is stopping). */
  reclaim: ClaimedUrl[];
}

export class Settler {
  readonly #parking: HostParking;
  readonly #redirects = new RedirectTracker();
  /** Final URL → the uncommitted record carrying the page a redirected fetch brought for it. */
  readonly #reached = new Map<string, Recorded>();
  readonly #retry: RetryRule;

  constructor(hosts: Partial<HostHealthOptions>, retry: RetryRule, wake: () => void) {
    this.#parking = new HostParking(hosts, wake);
    this.#retry = retry;
  }

  /**
   * Claims held here that the run waits for: URLs of parked hosts (their probes will
   * send them) and redirect targets being fetched.
   */
  get held(): number {
    return this.#parking.size + this.#redirects.size;
  }

  /** URLs of dead hosts, held until the run ends (`dead`). */
  get deadHeld(): number {
    return this.#parking.dead;
  }

  /**
   * Newly claimed URLs: those to send (`send`), less those held until a fetch
   * following a redirect to them ends, and the outcomes of those whose page a
   * redirected fetch already brought and whose outcome is not committed yet
   * (`records`: the claim takes the page, the redirecting URL becomes a plain redirect).
   */
  claimed(got: readonly ClaimedUrl[]): { send: ClaimedUrl[]; records: Recorded[] } {
    const send: ClaimedUrl[] = [];
    const records: Recorded[] = [];
    for (const c of got) {
      const r = this.#reached.get(c.url);
      if (r !== undefined) {
        this.#reached.delete(c.url);
        records.push(takeOver(r, c));
      } else if (this.#redirects.claimed(c)) {
        send.push(c);
      }
    }
    return { send, records };
  }

  /** Outcomes were committed: the pages they brought through redirects are the store's now. */
  committed(events: readonly PageEvent[]): void {
    if (this.#reached.size === 0) return;
    for (const e of events) if (e.finalUrl !== undefined) this.#reached.delete(e.finalUrl);
  }

  /** Held URLs of hosts due for a probe. */
  due(now: number): ClaimedUrl[] {
    return this.#parking.due(now);
  }

  /** `send` the claim now, or hold it (`held`: its host is parked, or dead). */
  admit(c: ClaimedUrl, now: number): 'send' | 'held' {
    const v = this.#parking.admit(c, now);
    return v === 'send' || v === 'probe' ? 'send' : 'held';
  }

  /** The fetch's `follow` hook for claim `url`. */
  follow(url: string): (location: string) => boolean {
    return (location) => this.#redirects.follow(url, location);
  }

  /** A fetch ended with `res` or `err`. `stopping`: the run is stopping (aborts are not failures). */
  ended(
    c: ClaimedUrl,
    res: FetchResult | null,
    err: unknown,
    stopping: boolean,
    judge: JudgePage,
  ): Settled {
    const now = Date.now();
    const out: Settled = { records: [], send: [], reclaim: [] };
    // Claims held while this fetch followed a redirect to them.
    const ended = this.#redirects.ended(c.url, res);
    for (const h of ended.hops) out.records.push(redirectOutcome(h.claim, h.steps, now));
    out.send.push(...ended.send);
    if (err !== null) {
      if (ended.takes !== null) out.send.push(ended.takes);
      if (err instanceof AbortedError && stopping) {
        out.reclaim.push(c);
        return out;
      }
      const held = this.#parking.failed(c, err, now);
      if (held === 'park' || held === 'dead') return out;
      out.records.push(this.#failed(c, now, errorText(err), null));
      if (held === 'fail') out.send.push(...this.#parking.settled(c.url));
      return out;
    }
    const r = res as FetchResult;
    out.send.push(...this.#parking.settled(c.url));
    const fetchedAt = r.timings.startedAt;
    const kind = responseKind(r);
    if (kind === 'unfollowed') {
      out.records.push(redirectOutcome(c, redirectSteps(r), fetchedAt));
      return out;
    }
    // A claim held for the final URL takes the page; this one is a redirect to it.
    const owner = ended.takes ?? c;
    if (ended.takes !== null) out.records.push(redirectOutcome(c, redirectSteps(r), fetchedAt));
    const rec =
      kind === 'status'
        ? this.#httpError(owner, r)
        : kind === 'cut'
          ? failure(owner, fetchedAt, errorText(bodyTooLarge(r)), r.status, r)
          : judge(owner, r, c);
    out.records.push(rec);
    if (rec.event.finalUrl !== undefined) this.#reached.set(rec.event.finalUrl, rec);
    return out;
  }

  /**
   * Nothing else is left to fetch: the held URLs of hosts that never answered in this
   * run are given up (held as dead until the run ends); hosts that answered are still
   * waited for. Returns how many URLs were given up.
   */
  giveUp(): number {
    return this.#parking.giveUp();
  }

  /** Every held claim the run waited for, taken out (the run is stopping: they go back to waiting). */
  drain(): ClaimedUrl[] {
    return [...this.#parking.drain(), ...this.#redirects.drain()];
  }

  /**
   * The URLs of dead hosts, as the run ends: each a failed attempt
   * (`FC_ERR_HOST_UNREACHABLE`) a later run may try again at once, or, its last
   * attempt, an error.
   */
  dead(): Recorded[] {
    const now = Date.now();
    return this.#parking.drainDead().map((c) => {
      const error = this.#parking.deadError(c.url, now);
      const again = c.attempts + 1 < this.#retry.maxAttempts ? now : null;
      return failure(c, now, error, null, undefined, again);
    });
  }

  /** A failure without a response, tried again when transient and attempts are left. */
  #failed(c: ClaimedUrl, now: number, error: string, status: number | null): Recorded {
    const info = classifyFailure({ error, status, url: c.url });
    return failure(c, now, error, status, undefined, retryAt(this.#retry, c.attempts, info, now));
  }

  /**
   * An HTTP error status. Transient (5xx, 429): the claim is tried again when it has
   * attempts left, after the back-off or the response's `Retry-After`; reached
   * through redirects, the hops are recorded and the final URL is queued to be fetched
   * on its own.
   */
  #httpError(owner: ClaimedUrl, r: FetchResult): Recorded {
    const fetchedAt = r.timings.startedAt;
    const error = `HTTP ${r.status}`;
    const info = classifyFailure({ error, status: r.status, url: r.finalUrl });
    if (info.class === 'transient' && r.finalUrl !== owner.url) {
      return redirectOutcome(owner, redirectSteps(r), fetchedAt);
    }
    const again = retryAt(this.#retry, owner.attempts, info, Date.now(), r.headers['retry-after']);
    return failure(owner, fetchedAt, error, r.status, r, again);
  }
}

/**
 * The claim of a final URL takes the page a redirected fetch brought for it; that
 * fetch's record, not committed yet (or in a commit that will find the final URL
 * claimed and leave it), becomes a plain redirect.
 */
function takeOver(r: Recorded, c: ClaimedUrl): Recorded {
  const o = r.outcome as Exclude<Outcome, { state: 'redirect' }>;
  const { redirects, ...page } = o.result;
  const own: Recorded = {
    outcome: { ...o, url: c.url, result: page } as Outcome,
    event: { ...r.event, url: c.url, depth: c.depth },
  };
  delete own.event.finalUrl;
  const steps = redirects ?? [];
  Object.assign(o, { state: 'redirect', result: { fetchedAt: page.fetchedAt, redirects: steps } });
  Object.assign(r.event, {
    state: 'redirect',
    status: steps[0]?.status ?? null,
    relevance: null,
    title: null,
    newUrls: 0,
    error: null,
  });
  delete r.event.finalUrl;
  return own;
}
