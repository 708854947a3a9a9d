// The revisits section of `focuscrawl status` (DESIGN 1.3): the last watch's budget
// and what was spent against it, revisits beside new fetches, what the revisits
// found, and the revisit plan (expected freshness, λ̂ by decade, what is due next).
// The watch and the plan are kept in the store's meta by src/watch/, a stage this
// one does not import: the caller reads them (`META_WATCH`, `META_PLAN`) and hands
// the stored values in; they are free JSON and read defensively.
import type { PlanSummary } from '../schedule/index.js';
import { type Store, VISIT_CHANGES, type VisitChange } from '../store/index.js';

/** The window of "the last hour". */
const HOUR_MS = 3_600_000;

/** The stored values of the last watch (`META_WATCH`) and its revisit plan (`META_PLAN`). */
export interface RevisitMeta {
  watch?: unknown;
  plan?: unknown;
}

/** The last revisit plan, as the watch stored it. */
export type RevisitPlanStatus = PlanSummary;

/** The revisits section of `status` (`StatusData.revisits`). Times in ms since the epoch. */
export interface RevisitStatus {
  /** The last watch's settings; null when none is recorded. */
  watch: { policy: string; discoveryShare: number; startedAt: number } | null;
  /** Its request budget over all hosts, and the requests per second that allows. */
  budget: { requests: number; perMs: number; perSec: number } | null;
  /** All time: fetches (history rows, redirect hops included) and revisits (visit rows). */
  fetches: number;
  revisits: number;
  /** Revisits by what they found, all time. */
  found: Record<VisitChange, number>;
  /** Pages a revisit found gone (404, 410, moved): no longer revisited. */
  gone: number;
  /**
   * The last hour of records: from an hour before the latest fetch or visit (later
   * when the records, or the last watch, begin later) to it. Each history row and
   * each visit row is one request. null before any fetch or visit.
   */
  lastHour: {
    from: number;
    until: number;
    fetches: number;
    revisits: number;
    found: Record<VisitChange, number>;
    /** (fetches + revisits) per second over the window; null for a window of no length. */
    perSec: number | null;
    /** perSec over the budget's; null without either. */
    ofBudget: number | null;
  } | null;
  /** Kept pages with a revisit record, those scheduled, and those due at the status's time. */
  tracked: number;
  scheduled: number;
  due: number;
  /** The earliest due time; null when nothing is scheduled. */
  nextDueAt: number | null;
  /** The last revisit plan; null when none is recorded. */
  plan: RevisitPlanStatus | null;
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isObj = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === 'object' && !Array.isArray(x);
const numOr = (x: unknown, d: number) => (isNum(x) ? x : d);
const noVisits = (): Record<VisitChange, number> => ({
  unchanged: 0,
  changed: 0,
  gone: 0,
  failed: 0,
});

function readWatch(raw: unknown): Pick<RevisitStatus, 'watch' | 'budget'> {
  if (!isObj(raw)) return { watch: null, budget: null };
  const b = raw['budget'];
  const budget =
    isObj(b) && isNum(b['requests']) && isNum(b['perMs']) && b['requests'] > 0 && b['perMs'] > 0
      ? {
          requests: b['requests'],
          perMs: b['perMs'],
          perSec: (b['requests'] * 1000) / b['perMs'],
        }
      : null;
  const watch = isNum(raw['startedAt'])
    ? {
        policy: typeof raw['policy'] === 'string' ? raw['policy'] : 'freshness',
        discoveryShare: numOr(raw['discoveryShare'], 0.5),
        startedAt: raw['startedAt'],
      }
    : null;
  return { watch, budget };
}

/** The stored plan; null when absent or malformed. */
function readPlan(raw: unknown): RevisitPlanStatus | null {
  if (!isObj(raw) || !isNum(raw['at']) || !isNum(raw['expectedFreshness'])) return null;
  const rates: Record<string, number> = {};
  if (isObj(raw['rates'])) {
    for (const [k, v] of Object.entries(raw['rates'])) if (isNum(v)) rates[k] = v;
  }
  const next = Array.isArray(raw['next'])
    ? raw['next']
        .filter(
          (x): x is { url: string; dueAt: number; rate: number } =>
            isObj(x) && typeof x['url'] === 'string' && isNum(x['dueAt']) && isNum(x['rate']),
        )
        .map(({ url, dueAt, rate }) => ({ url, dueAt, rate }))
    : [];
  return {
    at: raw['at'],
    policy: typeof raw['policy'] === 'string' ? raw['policy'] : 'freshness',
    pages: numOr(raw['pages'], 0),
    scheduled: numOr(raw['scheduled'], 0),
    givenUp: numOr(raw['givenUp'], 0),
    refreshPerDay: numOr(raw['refreshPerDay'], 0),
    discoveryPerDay: numOr(raw['discoveryPerDay'], 0),
    expectedFreshness: raw['expectedFreshness'],
    rates,
    next,
  };
}

/**
 * A stream's times (and one value each) within an hour of the latest seen: memory
 * holds about an hour of records, however long the stream.
 */
class LastHour<T> {
  count = 0;
  latest = Number.NEGATIVE_INFINITY;
  earliest = Number.POSITIVE_INFINITY;
  #items: [number, T][] = [];
  #limit = 1024;

  push(at: number, value: T): void {
    this.count++;
    if (at > this.latest) this.latest = at;
    if (at < this.earliest) this.earliest = at;
    if (at < this.latest - HOUR_MS) return;
    this.#items.push([at, value]);
    if (this.#items.length >= this.#limit) {
      const from = this.latest - HOUR_MS;
      this.#items = this.#items.filter(([t]) => t >= from);
      this.#limit = Math.max(1024, 2 * this.#items.length);
    }
  }

  /** The values at times in [from, until]. */
  within(from: number, until: number): T[] {
    return this.#items.filter(([t]) => t >= from && t <= until).map(([, v]) => v);
  }
}

/**
 * The revisits section, or null for a store without revisits (no revisit record
 * and no watch recorded). Reads the history and the visits once each.
 * @param now the status's time: pages due at or before it are due now
 */
export async function gatherRevisitStatus(
  store: Store,
  meta: RevisitMeta,
  now: number,
): Promise<RevisitStatus | null> {
  const totals = await store.revisitTotals(now);
  if (totals.tracked === 0 && (meta.watch === undefined || meta.watch === null)) return null;
  const { watch, budget } = readWatch(meta.watch);

  const fetches = new LastHour<null>();
  for await (const h of store.history()) fetches.push(h.fetchedAt, null);
  const visits = new LastHour<VisitChange>();
  for await (const v of store.visits()) visits.push(v.at, v.change);

  let lastHour: RevisitStatus['lastHour'] = null;
  const until = Math.max(fetches.latest, visits.latest);
  if (Number.isFinite(until)) {
    const starts = [until - HOUR_MS, Math.min(fetches.earliest, visits.earliest)];
    if (watch !== null && watch.startedAt <= until) starts.push(watch.startedAt);
    const from = Math.max(...starts);
    const f = fetches.within(from, until).length;
    const found = noVisits();
    for (const c of visits.within(from, until)) found[c]++;
    const revisits = VISIT_CHANGES.reduce((t, c) => t + found[c], 0);
    const perSec = until > from ? (f + revisits) / ((until - from) / 1000) : null;
    lastHour = {
      from,
      until,
      fetches: f,
      revisits,
      found,
      perSec,
      ofBudget: perSec !== null && budget !== null ? perSec / budget.perSec : null,
    };
  }

  return {
    watch,
    budget,
    fetches: fetches.count,
    revisits: visits.count,
    found: { ...noVisits(), ...totals.visits },
    gone: totals.gone,
    lastHour,
    tracked: totals.tracked,
    scheduled: totals.scheduled,
    due: totals.due,
    nextDueAt: totals.nextDueAt,
    plan: readPlan(meta.plan),
  };
}
