/**
 * Keep/discard threshold policies (pure state machines: no clock reads, time is passed
 * in; no I/O).
 *
 * - `fixed`: one value for the whole crawl (DESIGN 1.1, r = 0.1).
 * - `iterative` (DESIGN 1.2): `t0` is in force until `batchPages` pages have been
 *   observed; then, after every further `batchPages` pages, one step of the isodata
 *   iteration over the histogram of every relevance observed so far: with t the previous
 *   estimate ((t_max + t_min)/2 the first time), T1 the mean relevance in [t_min, t) and
 *   T2 the mean in [t, t_max], the threshold becomes t' = (T1 + T2)/2; once
 *   |t' − t| < ε it freezes (rule `converged`).
 * - `adaptive` (DESIGN 1.5): at the end of each interval of `intervalMs`, with f_T pages
 *   observed in it, F_T in total, r_T relevant in it (relevance ≥ the threshold then in
 *   force), T the intervals ended so far and S = `expectedPerInterval`:
 *   (1) f_T > S and F_T > S·T → thd·α; (2) if moreover r_T < μ·f_T → thd·β instead;
 *   (3) f_T < S and F_T < S·T → thd·γ; the result clamped to [min, max].
 *
 * "Pages" are the pages whose relevance the crawl `observe`s: every fetched page with a
 * relevance, kept or discarded; fetch errors are not pages.
 */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import {
  appendCapped,
  type ThresholdChange,
  type ThresholdHistory,
  type ThresholdKind,
} from './history.js';
import { type ThresholdSpec, validateThresholdSpec } from './threshold-spec.js';

export interface ThresholdPolicy {
  readonly kind: ThresholdKind;
  /** The threshold in force: relevance ≥ value keeps a page. */
  readonly value: number;
  /** True once an iterative threshold converged; it no longer moves. */
  readonly frozen: boolean;
  /** Every fetched page's relevance (kept or discarded), in fetch order. */
  observe(relevance: number): void;
  /**
   * Called by the crawl after each committed batch, with the time (ms since the epoch)
   * and the fetch outcomes stored so far (all runs, for the record); returns the change
   * when the threshold moved (or froze), null otherwise.
   */
  step(now: number, fetchedTotal: number): ThresholdChange | null;
  /**
   * Sets the threshold by hand (the control channel of `focuscrawl serve`), recording
   * the change with `rule` (`manual`); returns it, or null when the value is the one in
   * force. An iterative threshold goes on from it (its next estimate starts there; a
   * frozen one stays frozen at it), an adaptive one moves from it by its rules (clamped
   * to [min, max] only by those). A value outside [0, 1] throws `InvalidOptionError`.
   */
  set(value: number, rule: string, now: number, fetchedTotal: number): ThresholdChange | null;
  /** The history to store, `state` included so that `createThreshold` can resume. */
  history(): ThresholdHistory;
}

/** Bins of the iterative threshold's relevance histogram over [0, 1]. */
export const HISTOGRAM_BINS = 1000;

interface Core {
  kind: ThresholdKind;
  initial: number;
  value: number;
  frozen: boolean;
  changes: ThresholdChange[];
  /** Written into each change this policy makes (`ThresholdChange.by`). */
  by: string | undefined;
}

function record(core: Core, at: number, fetched: number, to: number, rule: string) {
  const change: ThresholdChange = { at, fetched, from: core.value, to, rule };
  if (core.by !== undefined) change.by = core.by;
  core.value = to;
  appendCapped(core.changes, change);
  return { ...change };
}

/** A hand-set value (`ThresholdPolicy.set`): checked, then recorded unless it is in force. */
function setByHand(core: Core, value: number, rule: string, at: number, fetched: number) {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new InvalidOptionError(`threshold: expected a number in [0, 1], got ${value}`);
  }
  return value === core.value ? null : record(core, at, fetched, value, rule);
}

function historyOf(core: Core, state: unknown): ThresholdHistory {
  return {
    kind: core.kind,
    initial: core.initial,
    value: core.value,
    frozen: core.frozen,
    changes: core.changes.map((c) => ({ ...c })),
    state,
  };
}

const iterativeState = z.strictObject({
  bins: z.array(
    z.tuple([
      z
        .number()
        .int()
        .min(0)
        .max(HISTOGRAM_BINS - 1),
      z.number(),
      z.number(),
    ]),
  ),
  count: z.number().int().min(0),
  min: z.number(),
  max: z.number(),
  sinceStep: z.number().int().min(0),
  estimate: z.number().nullable(),
});

const adaptiveState = z.strictObject({
  intervals: z.number().int().min(0),
  total: z.number().int().min(0),
  fetched: z.number().int().min(0),
  relevant: z.number().int().min(0),
});

function restoreState<T>(schema: z.ZodType<T>, saved: ThresholdHistory): T | undefined {
  if (saved.state === undefined) return undefined;
  const r = schema.safeParse(saved.state);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new InvalidOptionError(
      `saved ${saved.kind} threshold state: ${issue?.path.join('.') || '(state)'}: ${issue?.message}`,
      { cause: r.error },
    );
  }
  return r.data;
}

function fixedPolicy(spec: { value: number }, core: Core): ThresholdPolicy {
  core.value = spec.value;
  return {
    kind: 'fixed',
    get value() {
      return core.value;
    },
    frozen: false,
    observe() {},
    step: () => null,
    set: (value, rule, now, fetchedTotal) => setByHand(core, value, rule, now, fetchedTotal),
    history: () => historyOf(core, undefined),
  };
}

function iterativePolicy(
  spec: Extract<ThresholdSpec, { kind: 'iterative' }>,
  core: Core,
  saved: ThresholdHistory | undefined,
): ThresholdPolicy {
  const counts = new Float64Array(HISTOGRAM_BINS);
  const sums = new Float64Array(HISTOGRAM_BINS);
  let count = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sinceStep = 0;
  let estimate: number | null = null;
  const s = saved ? restoreState(iterativeState, saved) : undefined;
  if (s) {
    for (const [j, c, sum] of s.bins) {
      counts[j] = c;
      sums[j] = sum;
    }
    ({ count, min, max, sinceStep, estimate } = s);
  }
  const means = (t: number) => {
    let n1 = 0;
    let s1 = 0;
    let n2 = 0;
    let s2 = 0;
    for (let j = 0; j < HISTOGRAM_BINS; j++) {
      const c = counts[j] ?? 0;
      if (c === 0) continue;
      const sum = sums[j] ?? 0;
      if (sum / c < t) {
        n1 += c;
        s1 += sum;
      } else {
        n2 += c;
        s2 += sum;
      }
    }
    return { t1: n1 > 0 ? s1 / n1 : min, t2: n2 > 0 ? s2 / n2 : max };
  };
  return {
    kind: 'iterative',
    get value() {
      return core.value;
    },
    get frozen() {
      return core.frozen;
    },
    observe(relevance: number) {
      if (core.frozen || !Number.isFinite(relevance)) return;
      const r = Math.min(Math.max(relevance, 0), 1);
      const j = Math.min(HISTOGRAM_BINS - 1, Math.floor(r * HISTOGRAM_BINS));
      counts[j] = (counts[j] ?? 0) + 1;
      sums[j] = (sums[j] ?? 0) + r;
      count++;
      if (r < min) min = r;
      if (r > max) max = r;
      sinceStep++;
    },
    step(now: number, fetchedTotal: number) {
      if (core.frozen || sinceStep < spec.batchPages) return null;
      sinceStep = 0;
      if (count === 0 || max <= min) return null; // one value: nothing to separate yet
      const t = estimate ?? (max + min) / 2;
      const { t1, t2 } = means(t);
      const next = (t1 + t2) / 2;
      estimate = next;
      if (Math.abs(next - t) < spec.epsilon) {
        core.frozen = true;
        return record(core, now, fetchedTotal, next, 'converged');
      }
      return record(core, now, fetchedTotal, next, 'iterative');
    },
    set(value, rule, now, fetchedTotal) {
      const change = setByHand(core, value, rule, now, fetchedTotal);
      if (change !== null) estimate = value;
      return change;
    },
    history() {
      const bins: [number, number, number][] = [];
      for (let j = 0; j < HISTOGRAM_BINS; j++) {
        const c = counts[j] ?? 0;
        if (c > 0) bins.push([j, c, sums[j] ?? 0]);
      }
      return historyOf(core, { bins, count, min, max, sinceStep, estimate });
    },
  };
}

function adaptivePolicy(
  spec: Extract<ThresholdSpec, { kind: 'adaptive' }>,
  core: Core,
  saved: ThresholdHistory | undefined,
): ThresholdPolicy {
  const s = saved ? restoreState(adaptiveState, saved) : undefined;
  let intervals = s?.intervals ?? 0; // T: intervals ended, all runs
  let total = s?.total ?? 0; // F: pages observed, all runs
  let fetched = s?.fetched ?? 0; // f: pages observed in the current interval
  let relevant = s?.relevant ?? 0; // r: relevant pages in the current interval
  let start: number | null = null; // each run starts its clock at its first step
  core.value = Math.min(Math.max(core.value, spec.min), spec.max);
  return {
    kind: 'adaptive',
    get value() {
      return core.value;
    },
    frozen: false,
    observe(relevance: number) {
      fetched++;
      total++;
      if (relevance >= core.value) relevant++;
    },
    step(now: number, fetchedTotal: number) {
      if (start === null) {
        start = now;
        return null;
      }
      if (now - start < spec.intervalMs) return null;
      intervals++;
      const S = spec.expectedPerInterval;
      const f = fetched;
      const r = relevant;
      start = now;
      fetched = 0;
      relevant = 0;
      let factor = 1;
      let rule = '';
      if (f > S && total > S * intervals) {
        [factor, rule] = r < spec.mu * f ? [spec.beta, 'beta'] : [spec.alpha, 'alpha'];
      } else if (f < S && total < S * intervals) {
        [factor, rule] = [spec.gamma, 'gamma'];
      }
      const to = Math.min(Math.max(core.value * factor, spec.min), spec.max);
      if (rule === '' || to === core.value) return null;
      return record(core, now, fetchedTotal, to, rule);
    },
    set: (value, rule, now, fetchedTotal) => setByHand(core, value, rule, now, fetchedTotal),
    history: () => historyOf(core, { intervals, total, fetched, relevant }),
  };
}

/**
 * A threshold policy; with `saved` (a stored history of the same kind) it resumes. `by`
 * names the process in the changes it makes (`ThresholdChange.by`).
 */
export function createThreshold(
  spec: ThresholdSpec,
  saved?: ThresholdHistory,
  by?: string,
): ThresholdPolicy {
  const v = validateThresholdSpec(spec);
  if (saved !== undefined && saved.kind !== v.kind) {
    throw new InvalidOptionError(
      `threshold: the crawl was run with a ${saved.kind} threshold and is resumed with a ${v.kind} one; resume with the same kind, or start its threshold over`,
    );
  }
  const initial = v.kind === 'fixed' ? v.value : v.kind === 'iterative' ? v.t0 : v.initial;
  const core: Core = {
    kind: v.kind,
    initial: saved?.initial ?? initial,
    value: saved?.value ?? initial,
    frozen: saved?.frozen ?? false,
    changes: saved?.changes.map((c) => ({ ...c })) ?? [],
    by,
  };
  if (v.kind === 'fixed') return fixedPolicy(v, core);
  if (v.kind === 'iterative') return iterativePolicy(v, core, saved);
  return adaptivePolicy(v, core, saved);
}
