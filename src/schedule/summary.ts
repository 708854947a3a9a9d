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
