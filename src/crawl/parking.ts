/**
 * Claimed URLs of unreachable hosts, held instead of sent (the host's standing is
 * frontier/host-health.ts). A URL of a parked host waits here; when the host is due
 * for a probe one of its URLs goes back to be sent; a response from the host sends
 * the rest. A host that stays unreachable past the limit is dead for the run: its
 * URLs (and those claimed later) stay here, unsent, until the run ends, and are then
 * recorded as one failed attempt each, to be tried again by a later run: a dead host
 * costs each of its URLs one attempt per run, not one per URL sent. Held URLs are not
 * fetched, so they use none of the page budget.
 */
import { HostUnreachableError } from '../errors/index.js';
import { type HostFailure, hostFailureOf } from '../fetch/index.js';
import { HostHealth, type HostHealthOptions, type HostVerdict } from '../frontier/index.js';
import type { ClaimedUrl } from '../store/index.js';
import { hostOf } from '../url/index.js';
import { errorText } from './signals.js';

export class HostParking {
  readonly #health: HostHealth;
  /** URLs of parked hosts, waiting for a probe. */
  readonly #held = new Map<string, ClaimedUrl[]>();
  #size = 0;
  /** URLs of dead hosts, held until the run ends. */
  #dead: ClaimedUrl[] = [];
  #timer: NodeJS.Timeout | null = null;
  /** When the next probe is due (infinite when none). */
  #nextAt = Number.POSITIVE_INFINITY;
  readonly #wake: () => void;

  constructor(options: Partial<HostHealthOptions>, wake: () => void) {
    this.#health = new HostHealth(options);
    this.#wake = wake;
  }

  /** URLs held for parked hosts, waiting for a probe. */
  get size(): number {
    return this.#size;
  }

  /** URLs of dead hosts held until the run ends. */
  get dead(): number {
    return this.#dead.length;
  }

  /** What to do with a claimed URL about to be sent. `park` and `dead` hold it here. */
  admit(c: ClaimedUrl, now: number): HostVerdict {
    const host = hostOf(c.url) ?? '';
    const v = this.#health.verdict(host, now);
    if (v === 'park') this.#hold(host, c);
    else if (v === 'dead') this.#dead.push(c);
    return v;
  }

  /**
   * A fetch failed. Returns `fail` (record it as usual: the error says nothing of the
   * host), `counted` (record it; a timeout counted against the host), `park` (held
   * here, to be sent again with its host) or `dead` (held here with the host's other
   * URLs until the run ends: the host is dead).
   */
  failed(c: ClaimedUrl, err: unknown, now: number): 'fail' | 'counted' | 'park' | 'dead' {
    const kind: HostFailure = hostFailureOf(err);
    if (kind === 'none') return 'fail';
    const host = hostOf(c.url) ?? '';
    const v = this.#health.failed(host, kind, errorText(err), now);
    if (v === 'fail') return 'counted';
    if (v === 'park') {
      this.#hold(host, c);
      this.#arm(now);
      return 'park';
    }
    this.#dead.push(c, ...this.#take(host));
    this.#arm(now);
    return 'dead';
  }

  /**
   * A fetch of the URL's host ended otherwise than unreachable (a response, or a
   * failure that says nothing of the host): its held URLs are handed back to be sent.
   */
  settled(url: string): ClaimedUrl[] {
    const host = hostOf(url) ?? '';
    if (!this.#health.parked(host)) {
      this.#health.succeeded(host);
      return [];
    }
    this.#health.succeeded(host);
    return this.#take(host);
  }

  /** The URLs held for `host`, taken out. */
  #take(host: string): ClaimedUrl[] {
    const back = this.#held.get(host) ?? [];
    this.#held.delete(host);
    this.#size -= back.length;
    return back;
  }

  /**
   * One held URL of each host due for a probe, taken out to be sent (`admit` then
   * gives it the probe's turn).
   */
  due(now: number): ClaimedUrl[] {
    if (this.#size === 0 || now < this.#nextAt) return [];
    const out: ClaimedUrl[] = [];
    for (const [host, list] of this.#held) {
      if (this.#health.verdict(host, now, false) !== 'probe') continue;
      out.push(list.shift() as ClaimedUrl);
      this.#size--;
      if (list.length === 0) this.#held.delete(host);
    }
    this.#arm(now);
    return out;
  }

  /** The error a URL of a dead host is failed with. */
  deadError(url: string, now: number): string {
    const host = hostOf(url) ?? '';
    const since = this.#health.since(host);
    const s = since === null ? 0 : Math.round((now - since) / 1000);
    return errorText(
      new HostUnreachableError(
        `${host} unreachable for ${s} s, not sent (last error: ${this.#health.reason(host) ?? 'unknown'})`,
        { url },
      ),
    );
  }

  /**
   * Nothing else is left to fetch: hosts that never answered in this run are given
   * up at once (a dead seed ends the crawl now, not after `deadAfterMs`), their held
   * URLs held as dead; hosts that answered before are still waited for. Returns how
   * many URLs were given up.
   */
  giveUp(): number {
    let n = 0;
    for (const host of [...this.#held.keys()]) {
      if (this.#health.answered(host)) continue;
      this.#health.giveUp(host);
      const list = this.#take(host);
      this.#dead.push(...list);
      n += list.length;
    }
    return n;
  }

  /** Every URL held for a parked host, taken out (the run is stopping: they go back to waiting). */
  drain(): ClaimedUrl[] {
    const out = [...this.#held.values()].flat();
    this.#held.clear();
    this.#size = 0;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    return out;
  }

  /** The URLs of dead hosts, taken out (the run is ending: each is recorded as a failed attempt). */
  drainDead(): ClaimedUrl[] {
    const out = this.#dead;
    this.#dead = [];
    return out;
  }

  #hold(host: string, c: ClaimedUrl): void {
    let list = this.#held.get(host);
    if (list === undefined) {
      list = [];
      this.#held.set(host, list);
    }
    list.push(c);
    this.#size++;
  }

  /** A timer for the next probe, so that the crawl wakes when a host is due. */
  #arm(now: number): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const at = this.#health.nextProbeAt();
    this.#nextAt = at ?? Number.POSITIVE_INFINITY;
    if (at === undefined || this.#size === 0) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#wake();
      },
      Math.max(0, at - now) + 5,
    );
    this.#timer.unref?.();
  }
}
