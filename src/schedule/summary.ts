/**
 * A revisit plan's summary: what an incremental crawl (src/watch) keeps in the store
 * for `status` and the report (src/export, src/report) to show. A plain record.
 */

/** The plan, as `status` shows it (the watch stores it under `watch.plan`). */
export interface PlanSummary {
  at: number;
  /** How revisits were planned: freshness, uniform or none. */
  policy: string;
  /** Kept pages planned, scheduled (f > 0) and given up on. */
  pages: number;
  scheduled: number;
  givenUp: number;
  refreshPerDay: number;
  discoveryPerDay: number;
  /** Σ w·F / Σ w under the plan. */
  expectedFreshness: number;
  /** λ̂ (changes per day) counted in decades: `<0.01`, `0.01–0.1`, … `≥100`. */
  rates: Record<string, number>;
  /** The pages due soonest: URL, due time, λ̂. */
  next: { url: string; dueAt: number; rate: number }[];
}

/** λ̂ (changes per day) by decade, the keys of `PlanSummary.rates`. */
export const RATE_DECADES = ['<0.01', '0.01–0.1', '0.1–1', '1–10', '10–100', '≥100'] as const;

/** The decade of a change rate: 0 for `<0.01` … 5 for `≥100`. */
export function rateDecade(rate: number): number {
  if (!(rate >= 0.01)) return 0;
  return Math.min(5, Math.floor(Math.log10(rate)) + 3);
}
