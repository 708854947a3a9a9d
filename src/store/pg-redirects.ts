/**
 * The redirect hops of an outcome in a commit plan of the PostgreSQL store (the
 * Redirects paragraph of contracts.ts, as sqlite-urls.ts records them): every hop
 * that is the claimed URL, unknown or waiting becomes a redirect with a history row;
 * later hops being fetched or already fetched are left as they are.
 */
import type { CommitPlan, PlanUrl } from './pg-outcomes.js';
import { STATE_CODE, STATE_NAME } from './schema.js';
import type { RedirectStep, UrlState } from './types.js';

/** A URL that became a redirect, and the URL it redirects to. */
export type Hop = [hop: PlanUrl, to: string];

/**
 * Records the hops of a redirect chain (`steps`, from the claimed URL `row` on) in
 * `plan`; returns the URLs that became redirects, with their targets.
 */
export function recordHops(
  plan: CommitPlan,
  row: PlanUrl,
  steps: readonly RedirectStep[],
  at: number,
): Hop[] {
  const out: Hop[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as RedirectStep;
    const known = i === 0 ? row : plan.get(step.url);
    if (i > 0 && known !== undefined && known.state !== STATE_CODE.waiting) continue;
    const from = known === undefined ? null : (STATE_NAME[known.state] as UrlState);
    const hop = known ?? plan.insertLike(step.url, row, 'redirect', at);
    plan.set(hop, { state: STATE_CODE.redirect, redirectTo: null });
    plan.addHistory({
      at: hop,
      fetchedAt: at,
      status: step.status,
      state: STATE_CODE.redirect,
      relevance: null,
      depth: hop.depth,
      error: null,
      location: step.location,
      attempt: hop.attempts + 1,
      retryAt: null,
      fetchMs: null,
    });
    plan.t.fetchedOne(step.url, 'redirect', 0, false, from);
    out.push([hop, step.location]);
  }
  return out;
}

/**
 * The URLs of `o`'s chain beyond the claimed one (later hops and the final URL):
 * those the commit may take from the frontier.
 */
export function chainUrls(steps: readonly RedirectStep[] | undefined): string[] {
  if (steps === undefined || steps.length === 0) return [];
  const out = steps.slice(1).map((s) => s.url);
  out.push((steps[steps.length - 1] as RedirectStep).location);
  return out;
}
