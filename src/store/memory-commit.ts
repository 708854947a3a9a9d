/**
 * `commit` on the memory store, first half: what a batch of outcomes will do to
 * the URLs, worked out on an overlay of the states before anything changes, so
 * that a bad batch is refused whole. The second half (memory.ts) carries the plan
 * out; both follow the outcomes in order, as the SQLite store's transaction does.
 */
import { InvalidOptionError, StoreStateError } from '../errors/index.js';
import type { MemoryFrontier } from './memory-frontier.js';
import type { Outcome, RedirectStep, UrlRecord, UrlState } from './types.js';

/** A hop whose URL becomes a redirect, and the state it leaves (null: it was unknown). */
export interface PlannedHop {
  step: RedirectStep;
  from: 'processing' | 'waiting' | null;
}

/** What one outcome does. */
export interface Planned {
  outcome: Outcome;
  /** The claimed (processing) URL. */
  claimed: UrlRecord;
  /** The hops recorded as redirects, the claimed URL first; none without redirects. */
  hops: PlannedHop[];
  /** The URL the page or failure belongs to: the last location, or the claimed URL. */
  target: string;
  /**
   * `queue`: the target of a redirect outcome, unknown, is queued as waiting;
   * `record`: the page or failure is recorded under the target; `none`: nothing
   * is written for the target.
   */
  fate: 'queue' | 'record' | 'none';
  /** The target's state before the outcome (null: unknown). */
  from: UrlState | null;
}

const VERB: Record<string, string> = {
  complete: 'complete',
  discard: 'discard',
  error: 'fail',
  redirect: 'redirect',
};

export function stateError(verb: string, url: string, state: UrlState | undefined): Error {
  const is = state === undefined ? 'not a known URL' : state;
  return new StoreStateError(`cannot ${verb} ${url}: it is ${is}, expected processing`, { url });
}

/**
 * The plan of a batch (already validated: `checkOutcomes`). Throws
 * `StoreStateError` for a URL that is not processing or is given twice, and
 * `InvalidOptionError` for an unknown `duplicate.of` or `newUrls` parent of a
 * page that will be recorded.
 */
export function planCommit(f: MemoryFrontier, outcomes: readonly Outcome[]): Planned[] {
  const urls = f.urls;
  // The states the batch's earlier outcomes give.
  const pending = new Map<string, UrlState>();
  const stateOf = (u: string): UrlState | undefined => pending.get(u) ?? urls.get(u)?.state;
  // Every URL first (as the SQLite store does before writing bodies), then in order:
  // a URL given twice is refused in the state its first outcome gives it.
  for (const o of outcomes) {
    if (urls.get(o.url)?.state !== 'processing') {
      throw stateError(VERB[o.state] ?? o.state, o.url, urls.get(o.url)?.state);
    }
  }
  const plans: Planned[] = [];
  for (const o of outcomes) {
    if (stateOf(o.url) !== 'processing') {
      throw stateError(VERB[o.state] ?? o.state, o.url, stateOf(o.url));
    }
    const claimed = urls.get(o.url) as UrlRecord;
    const steps = o.result.redirects ?? [];
    const hops: PlannedHop[] = [];
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i] as RedirectStep;
      // The claimed URL, then later hops that are unknown or waiting; a later hop
      // that is processing or final is left as it is.
      const was = i === 0 ? 'processing' : stateOf(step.url);
      if (i > 0 && was !== undefined && was !== 'waiting') continue;
      hops.push({ step, from: (was as 'processing' | 'waiting' | undefined) ?? null });
      pending.set(step.url, 'redirect');
    }
    const last = steps[steps.length - 1];
    const target = last === undefined ? o.url : last.location;
    const was = stateOf(target) ?? null;
    let fate: Planned['fate'] = 'none';
    if (o.state === 'redirect') {
      if (was === null) {
        fate = 'queue';
        pending.set(target, 'waiting');
      }
    } else if (last === undefined || was === null || was === 'waiting') {
      fate = 'record';
      pending.set(target, o.state);
      if (o.state !== 'error') {
        const dup = o.result.duplicate ?? null;
        if (dup !== null && stateOf(dup.of) === undefined) {
          throw new InvalidOptionError(
            `commit ${o.url} duplicate.of: ${dup.of} is not a known URL`,
          );
        }
        if (o.result.newUrls !== undefined) {
          f.checkParents(`commit ${o.url} newUrls`, o.result.newUrls, pending);
        }
      }
    }
    plans.push({
      outcome: o,
      claimed,
      hops,
      target,
      fate,
      from: last === undefined ? 'processing' : was,
    });
  }
  return plans;
}
