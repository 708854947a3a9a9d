/**
 * What becomes of a claimed URL around its fetch, apart from judging the page: an
 * unreachable host holds its URLs (parking.ts), a redirect is followed only to a
 * URL the run does not have, and a redirecting URL is recorded as a redirect to
 * the page it led to (redirects.ts). The engine hands each claim and each ended
 * fetch here and gets back what to record and what to send.
 */
import { AbortedError } from '../errors/index.js';
import type { FetchResult } from '../fetch/index.js';
import type { HostHealthOptions } from '../frontier/index.js';
import type { ClaimedUrl, Outcome } from '../store/index.js';
import { failure, redirectOutcome } from './page.js';
import { HostParking } from './parking.js';
import { RedirectTracker, redirectSteps } from './redirects.js';
import { errorText } from './signals.js';
import type { PageEvent } from './types.js';

export type Recorded = { outcome: Outcome; event: PageEvent };

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

  constructor(hosts: Partial<HostHealthOptions>, wake: () => void) {
    this.#parking = new HostParking(hosts, wake);
  }

  /** Claims held here (unreachable hosts, redirect targets being fetched). */
  get held(): number {
    return this.#parking.size + this.#redirects.size;
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

  /** `send` the claim now, hold it (`held`), or record the failure returned (its host is dead). */
  admit(c: ClaimedUrl, now: number): 'send' | 'held' | Recorded {
    const v = this.#parking.admit(c, now);
    if (v === 'send' || v === 'probe') return 'send';
    if (v === 'park') return 'held';
    return failure(c, now, this.#parking.deadError(c.url, now), null);
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
      if (held === 'park') return out;
      out.records.push(failure(c, now, errorText(err), null));
      if (held === 'fail') out.send.push(...this.#parking.settled(c.url));
      else if (held !== 'counted')
        for (const x of held.slice(1)) out.records.push(this.#dead(x, now));
      return out;
    }
    const r = res as FetchResult;
    out.send.push(...this.#parking.settled(c.url));
    const fetchedAt = r.timings.startedAt;
    if (r.unfollowed !== undefined) {
      out.records.push(redirectOutcome(c, redirectSteps(r), fetchedAt));
      return out;
    }
    // A claim held for the final URL takes the page; this one is a redirect to it.
    const owner = ended.takes ?? c;
    if (ended.takes !== null) out.records.push(redirectOutcome(c, redirectSteps(r), fetchedAt));
    const rec =
      r.status < 200 || r.status >= 300
        ? failure(owner, fetchedAt, `HTTP ${r.status}`, r.status, r)
        : judge(owner, r, c);
    out.records.push(rec);
    if (rec.event.finalUrl !== undefined) this.#reached.set(rec.event.finalUrl, rec);
    return out;
  }

  /**
   * Nothing else is left to fetch: the held URLs of hosts that never answered in this
   * run fail now (`FC_ERR_HOST_UNREACHABLE`); hosts that answered are still waited for.
   */
  giveUp(): Recorded[] {
    const now = Date.now();
    return this.#parking.giveUp().map((c) => this.#dead(c, now));
  }

  /** Every held claim, taken out (the run is stopping: they go back to waiting). */
  drain(): ClaimedUrl[] {
    return [...this.#parking.drain(), ...this.#redirects.drain()];
  }

  #dead(c: ClaimedUrl, now: number): Recorded {
    return failure(c, now, this.#parking.deadError(c.url, now), null);
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
