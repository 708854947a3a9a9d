/**
 * The host-aware claim (`ClaimOptions.hosts`), shared by the stores: walking the
 * waiting URLs best first, which to take (at most `perHost` per host, none of a
 * skipped host) and when to stop looking (`scan` URLs looked at, or n taken).
 */
import { hostOf } from '../url/index.js';

export class HostPicker {
  readonly #perHost: number;
  readonly #skip: ReadonlySet<string>;
  readonly #scan: number;
  readonly #taken = new Map<string, number>();
  #looked = 0;

  constructor(o: { perHost: number; skip: ReadonlySet<string>; scan: number }) {
    this.#perHost = o.perHost;
    this.#skip = o.skip;
    this.#scan = o.scan;
  }

  /** Whether the walk may look at another URL. */
  get more(): boolean {
    return this.#looked < this.#scan;
  }

  /** Looks at `url` (the next best waiting): whether to claim it. */
  take(url: string): boolean {
    this.#looked++;
    const host = hostOf(url) ?? '';
    if (this.#skip.has(host)) return false;
    const n = this.#taken.get(host) ?? 0;
    if (n >= this.#perHost) return false;
    this.#taken.set(host, n + 1);
    return true;
  }
}
