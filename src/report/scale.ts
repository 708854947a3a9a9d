// Axis domains and tick values for the charts. Pure.

/** An axis: its domain (extended to whole ticks) and the tick values. */
export interface Axis {
  min: number;
  max: number;
  ticks: number[];
}

/** Step of about (max − min) / count rounded to 1, 2 or 5 × 10^k. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const error = raw / power;
  const factor =
    error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1;
  return factor * power;
}

/** Multiples of `step` from `min` to `max` (both multiples), without float noise. */
function stepsFrom(min: number, max: number, step: number): number[] {
  const ticks: number[] = [];
  const n = Math.round((max - min) / step);
  for (let i = 0; i <= n; i++) ticks.push(+(min + i * step).toPrecision(12));
  return ticks;
}

/**
 * A linear axis covering [min, max] with about `count` ticks at round values,
 * the domain extended to the outer ticks. An empty span becomes [min, min + 1].
 * @example niceAxis(0, 37) → { min: 0, max: 40, ticks: [0, 10, 20, 30, 40] }
 */
export function niceAxis(min: number, max: number, count = 5, minStep = 0): Axis {
  let lo = Math.min(min, max);
  let hi = Math.max(min, max);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    lo = 0;
    hi = 1;
  }
  if (hi - lo === 0) hi = lo + 1;
  const step = Math.max(minStep, niceStep(hi - lo, count));
  const a = Math.floor(lo / step + 1e-9) * step;
  const b = Math.ceil(hi / step - 1e-9) * step;
  return { min: a, max: b, ticks: stepsFrom(a, b, step) };
}

/** An axis of counts from 0 to `max`: whole-number ticks only. */
export function countAxis(max: number, count = 5): Axis {
  return niceAxis(0, Math.max(1, max), count, 1);
}

/** The fixed axis [0, 1] with ticks every 0.2 (rates and relevance). */
export const UNIT_AXIS: Axis = { min: 0, max: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] };

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Tick steps on a time axis: round durations. */
const TIME_STEPS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/**
 * An axis of elapsed milliseconds from 0 to `spanMs`, ticks at round durations
 * (1s, 15s, 5m, 1h, …; below 5 seconds, round milliseconds).
 * @example timeAxis(100_000) → ticks [0, 30000, 60000, 90000, 120000]
 */
export function timeAxis(spanMs: number, count = 5): Axis {
  const span = spanMs > 0 && Number.isFinite(spanMs) ? spanMs : 1;
  if (span < 5 * SECOND) return niceAxis(0, span, count);
  const raw = span / count;
  const step = TIME_STEPS.find((s) => s >= raw) ?? Math.ceil(raw / (7 * DAY)) * 7 * DAY;
  const max = Math.ceil(span / step - 1e-9) * step;
  return { min: 0, max, ticks: stepsFrom(0, max, step) };
}

/** Maps [d0, d1] onto [r0, r1] linearly; a zero-width domain maps to r0. */
export function linear(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}
