/**
 * Leases: who holds a claim, and until when. A crawl run opens a lease, claims
 * under it and renews it while it lives; `recover` takes back only the claims of
 * leases that are lost. Shared by every store: the judgement of a lease is the
 * same everywhere.
 */
import { hostname } from 'node:os';
import { LeaseLostError } from '../errors/index.js';
import type { Lease, LeaseOwner } from './types.js';
import { checkInt, fail, show } from './validate-basics.js';

/** Whether a process with this pid runs on this machine. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process as a lease owner, started at `startedAt`. */
export function thisProcess(startedAt = Date.now()): LeaseOwner {
  return { host: hostname(), pid: process.pid, startedAt };
}

/**
 * Whether a lease is lost at `now`: expired, or its owner provably gone (on this
 * machine, its pid not running). An owner on another machine is judged by its
 * expiry alone.
 */
export function leaseLost(l: Lease, now: number): boolean {
  return l.expiresAt < now || (l.host === hostname() && !pidAlive(l.pid));
}

/** The error of a claim under a lease that is not open. */
export function leaseLostError(op: string, id: number): Error {
  return new LeaseLostError(
    `${op}: lease ${id} is not open (closed, or lost: it expired or its owner is gone, and its claims were taken back); open a new lease`,
  );
}

/** Checks `openLease`'s arguments. */
export function checkLeaseOwner(owner: LeaseOwner, expiresAt: number): void {
  const where = 'openLease owner';
  if (typeof owner !== 'object' || owner === null)
    fail(where, `expected { host, pid, startedAt }, got ${show(owner)}`);
  for (const k of Object.keys(owner)) {
    if (k !== 'host' && k !== 'pid' && k !== 'startedAt') fail(where, `unknown field "${k}"`);
  }
  if (typeof owner.host !== 'string' || owner.host === '')
    fail(`${where}.host`, `expected a host name, got ${show(owner.host)}`);
  checkInt(`${where}.pid`, owner.pid, 1);
  checkInt(`${where}.startedAt`, owner.startedAt, 0);
  checkInt('openLease expiresAt', expiresAt, 0);
}

/** Checks a lease id (`renewLease`, `closeLease`, the `lease` options). */
export function checkLeaseId(where: string, id: unknown): asserts id is number {
  checkInt(where, id, 1);
}

/** Checks `commit`'s options; returns the lease, if any. */
export function checkCommitOptions(where: string, options: unknown): number | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null)
    fail(where, `expected an object, got ${show(options)}`);
  for (const k of Object.keys(options)) if (k !== 'lease') fail(where, `unknown option "${k}"`);
  const { lease } = options as { lease?: unknown };
  if (lease !== undefined) checkLeaseId(`${where}.lease`, lease);
  return lease;
}
