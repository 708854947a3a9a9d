/**
 * Which hosts can be reached. A DNS failure, a refused or unreachable connection,
 * a connection that times out, or `timeoutsToPark` timeouts in a row park a host:
 * its URLs are not sent one by one but wait with it, and one of them is sent again
 * as a probe after a back-off that doubles (`retryMs`, 2·`retryMs`, …). A response
 * of any status makes the host healthy again; once a host has stayed unreachable
 * for `deadAfterMs` it is dead for the rest of the run, and its URLs are failed
 * together with one reason (`FC_ERR_HOST_UNREACHABLE`). Pure: the caller passes
 * the time and keeps the URLs; this module keeps only each host's standing.
 */
import type { HostFailure } from '../fetch/index.js';

export interface HostHealthOptions {
  /** First back-off before a parked host is probed; it doubles after each failed probe. */
  retryMs: number;
  /** A host unreachable for this long (from its first failure) is dead. 0: at once. */
  deadAfterMs: number;
  /** Timeouts in a row (after the fetcher's own retries) that park a host. */
  timeoutsToPark: number;
}

export const HOST_HEALTH_DEFAULTS: HostHealthOptions = {
  retryMs: 30_000,
  deadAfterMs: 300_000,
  timeoutsToPark: 3,
};

/** What the caller should do with a URL of this host now. */
export type HostVerdict = 'send' | 'probe' | 'park' | 'dead';

interface Standing {
  /** Timeouts in a row. */
  timeouts: number;
  /** When the host was first found unreachable (parked); null while healthy. */
  since: number | null;
  nextProbeAt: number;
  backoffMs: number;
  /** A probe is in flight. */
  probing: boolean;
  dead: boolean;
  /** The last failure, as the error's text. */
  reason: string;
}

export class HostHealth {
  readonly #o: HostHealthOptions;
  readonly #hosts = new Map<string, Standing>();
  /** Hosts that gave a response in this run. */
  readonly #answered = new Set<string>();

  constructor(options: Partial<HostHealthOptions> = {}) {
    this.#o = { ...HOST_HEALTH_DEFAULTS, ...options };
  }

  /**
   * Whether to send a URL of `host` now, hold it (park), send it as the probe, or
   * fail it. A `probe` verdict counts the probe as sent unless `take` is false.
   */
  verdict(host: string, now: number, take = true): HostVerdict {
    const s = this.#hosts.get(host);
    if (s === undefined || s.since === null) return 'send';
    if (s.dead) return 'dead';
    if (s.probing || now < s.nextProbeAt) return 'park';
    if (take) s.probing = true;
    return 'probe';
  }

  /**
   * Records a failed fetch: `park` (hold the URL: it is retried with the host), `dead`
   * (fail it and the host's held URLs), or `fail` (record the failure as usual).
   */
  failed(host: string, kind: HostFailure, reason: string, now: number): 'park' | 'dead' | 'fail' {
    if (kind === 'none') return 'fail';
    let s = this.#hosts.get(host);
    if (s === undefined) {
      s = {
        timeouts: 0,
        since: null,
        nextProbeAt: 0,
        backoffMs: 0,
        probing: false,
        dead: false,
        reason,
      };
      this.#hosts.set(host, s);
    }
    if (s.dead) return 'dead';
    s.reason = reason;
    if (s.since === null) {
      if (kind === 'timeout' && ++s.timeouts < this.#o.timeoutsToPark) return 'fail';
      s.since = now;
      s.backoffMs = this.#o.retryMs;
    } else {
      s.probing = false;
      s.backoffMs *= 2;
    }
    if (now - s.since >= this.#o.deadAfterMs) {
      s.dead = true;
      return 'dead';
    }
    s.nextProbeAt = Math.min(now + s.backoffMs, s.since + this.#o.deadAfterMs);
    return 'park';
  }

  /** A response came from `host` (any status): it is healthy again. */
  succeeded(host: string): void {
    this.#answered.add(host);
    const s = this.#hosts.get(host);
    if (s === undefined || s.dead) return;
    this.#hosts.delete(host);
  }

  /** Whether `host` has answered in this run. */
  answered(host: string): boolean {
    return this.#answered.has(host);
  }

  /** Declares a parked host dead now (the crawl has nothing else left to wait for). */
  giveUp(host: string): void {
    const s = this.#hosts.get(host);
    if (s !== undefined && s.since !== null) s.dead = true;
  }

  /** Whether `host` is parked or dead. */
  parked(host: string): boolean {
    return this.#hosts.get(host)?.since != null;
  }

  /** The last failure of an unparked, parked or dead host. */
  reason(host: string): string | undefined {
    return this.#hosts.get(host)?.reason;
  }

  /** When `host` became unreachable; null when it is not parked. */
  since(host: string): number | null {
    return this.#hosts.get(host)?.since ?? null;
  }

  /** The earliest time a parked host (not being probed) is due for a probe. */
  nextProbeAt(): number | undefined {
    let t: number | undefined;
    for (const s of this.#hosts.values()) {
      if (s.since === null || s.dead || s.probing) continue;
      if (t === undefined || s.nextProbeAt < t) t = s.nextProbeAt;
    }
    return t;
  }

  /** Hosts parked now (not dead) and dead hosts. */
  counts(): { parked: number; dead: number } {
    let parked = 0;
    let dead = 0;
    for (const s of this.#hosts.values()) {
      if (s.dead) dead++;
      else if (s.since !== null) parked++;
    }
    return { parked, dead };
  }
}
