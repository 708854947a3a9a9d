/**
 * The leases of the memory store and the claims made under them: which lease
 * holds each processing URL claimed under one. A URL leaves the book when it
 * leaves processing.
 */
import { leaseLost, leaseLostError } from './lease.js';
import type { Lease, LeaseOwner } from './types.js';

export class LeaseBook {
  readonly #leases = new Map<number, Lease>();
  /** Processing URL → the lease it was claimed under. */
  readonly #claims = new Map<string, number>();
  #nextId = 1;

  open(owner: LeaseOwner, expiresAt: number): Lease {
    const l: Lease = { id: this.#nextId++, ...owner, expiresAt };
    this.#leases.set(l.id, l);
    return { ...l };
  }

  renew(id: number, expiresAt: number): boolean {
    const l = this.#leases.get(id);
    if (l === undefined) return false;
    l.expiresAt = expiresAt;
    return true;
  }

  /** Closes a lease; returns the URLs still claimed under it (now released). */
  close(id: number): string[] {
    this.#leases.delete(id);
    const urls: string[] = [];
    for (const [u, l] of this.#claims) if (l === id) urls.push(u);
    for (const u of urls) this.#claims.delete(u);
    return urls;
  }

  list(): Lease[] {
    return [...this.#leases.values()].map((l) => ({ ...l }));
  }

  /** Throws `LeaseLostError` unless lease `id` is open. */
  check(op: string, id: number): void {
    if (!this.#leases.has(id)) throw leaseLostError(op, id);
  }

  /** Notes that `url` was claimed under lease `id`. */
  claimed(url: string, id: number): void {
    this.#claims.set(url, id);
  }

  /** Whether lease `id` holds the claim of `url`. */
  holds(url: string, id: number): boolean {
    return this.#claims.get(url) === id;
  }

  /** `url` left processing. */
  released(url: string): void {
    this.#claims.delete(url);
  }

  /**
   * Closes the leases lost at `now`; returns a test of whether a processing URL's
   * claim is held by nobody (no lease, or a lease no longer open).
   */
  sweep(now: number): (url: string) => boolean {
    for (const l of [...this.#leases.values()]) if (leaseLost(l, now)) this.#leases.delete(l.id);
    return (url) => {
      const l = this.#claims.get(url);
      return l === undefined || !this.#leases.has(l);
    };
  }
}
