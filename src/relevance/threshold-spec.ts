/**
 * The keep/discard threshold as a user gives it (DESIGN 1.1, 1.2, 1.5): the three kinds
 * and their parameters, their defaults, validation with messages that name the option,
 * flags and overrides (`parseThresholdSpec`), and the threshold that separates scored
 * examples (`topic learn`). The policies themselves are in threshold.ts.
 */
import { z } from 'zod';
import { type FocusCrawlError, InvalidOptionError } from '../errors/index.js';
import type { ThresholdKind } from './history.js';

export type ThresholdSpec =
  | { kind: 'fixed'; value: number }
  | { kind: 'iterative'; t0: number; epsilon: number; batchPages: number }
  | {
      kind: 'adaptive';
      initial: number;
      alpha: number;
      beta: number;
      gamma: number;
      mu: number;
      expectedPerInterval: number;
      intervalMs: number;
      min: number;
      max: number;
    };

/**
 * Defaults, and why:
 * - fixed 0.1: the paper's r (DESIGN 1.1).
 * - iterative t0 0.05: low, so that early on few relevant pages are lost while the
 *   histogram fills; ε 0.005: five histogram bins, below any difference that matters for
 *   a keep/discard decision; batchPages 200: a histogram of 200 pages already shows the
 *   two modes (irrelevant near 0, relevant around 0.3–0.9) on the test web, while a
 *   crawl of 2,000 pages/s re-estimates ten times a second at most.
 * - adaptive: α 1.05, β 1.2, γ 0.95, μ 0.3 (mid-range of DESIGN 1.5's 1 < α < 1.1,
 *   1.1 < β < 1.5, 0.9 < γ < 1, 0.1 < μ < 0.5); initial 0.1 (as fixed); the threshold
 *   is kept in [0.01, 0.6] so that it neither keeps everything nor starves the crawl;
 *   10 s intervals with S = 1,000 pages expected per interval (about half the test web's
 *   single-machine throughput, so that a crawl at full speed tightens and a slow one
 *   relaxes).
 */
export const THRESHOLD_DEFAULTS = {
  fixed: { value: 0.1 },
  iterative: { t0: 0.05, epsilon: 0.005, batchPages: 200 },
  adaptive: {
    initial: 0.1,
    alpha: 1.05,
    beta: 1.2,
    gamma: 0.95,
    mu: 0.3,
    expectedPerInterval: 1000,
    intervalMs: 10_000,
    min: 0.01,
    max: 0.6,
  },
} as const;

const unit = (what = 'a number in [0, 1]') =>
  z
    .number({ error: `expected ${what}` })
    .min(0, { error: `expected ${what}` })
    .max(1, {
      error: `expected ${what}`,
    });
const above = (n: number, what: string) =>
  z.number({ error: `expected ${what}` }).gt(n, { error: `expected ${what}` });

const fixedSchema = z.strictObject({ kind: z.literal('fixed'), value: unit() });
const iterativeSchema = z.strictObject({
  kind: z.literal('iterative'),
  t0: unit(),
  epsilon: above(0, 'a number > 0').max(1, { error: 'expected a number in (0, 1]' }),
  batchPages: z
    .number({ error: 'expected a positive integer' })
    .int({ error: 'expected a positive integer' })
    .min(1, { error: 'expected a positive integer' }),
});
const adaptiveSchema = z
  .strictObject({
    kind: z.literal('adaptive'),
    initial: unit(),
    alpha: above(1, 'a number > 1'),
    beta: above(1, 'a number > 1'),
    gamma: above(0, 'a number in (0, 1)').lt(1, { error: 'expected a number in (0, 1)' }),
    mu: unit(),
    expectedPerInterval: above(0, 'a number > 0'),
    intervalMs: z
      .number({ error: 'expected a positive integer (ms)' })
      .int({ error: 'expected a positive integer (ms)' })
      .min(1, { error: 'expected a positive integer (ms)' }),
    min: unit(),
    max: unit(),
  })
  .superRefine((v, ctx) => {
    if (v.min > v.max) {
      ctx.addIssue({
        code: 'custom',
        path: ['max'],
        message: `expected a number ≥ min (${v.min})`,
      });
    } else if (v.initial < v.min || v.initial > v.max) {
      ctx.addIssue({
        code: 'custom',
        path: ['initial'],
        message: `expected a number in [min, max] = [${v.min}, ${v.max}]`,
      });
    }
    if (v.beta < v.alpha) {
      ctx.addIssue({
        code: 'custom',
        path: ['beta'],
        message: `expected a number ≥ alpha (${v.alpha}): rule 2 raises more than rule 1`,
      });
    }
  });

export const thresholdSpecSchema = z.discriminatedUnion(
  'kind',
  [fixedSchema, iterativeSchema, adaptiveSchema],
  { error: 'expected kind "fixed", "iterative" or "adaptive"' },
);

function invalid(error: z.ZodError, data: unknown): FocusCrawlError {
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    return new InvalidOptionError(
      `threshold: unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`,
      { cause: error },
    );
  }
  const path = issue?.path ?? [];
  let value: unknown = data;
  for (const p of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[p];
  const field = ['threshold', ...path.map(String)].join('.');
  const got = value === undefined ? 'missing' : `got ${JSON.stringify(value)}`;
  return new InvalidOptionError(`${field}: ${issue?.message ?? 'invalid'}, ${got}`, {
    cause: error,
  });
}

/** Validates a spec; errors name the field (`threshold.alpha: expected a number > 1, got 0.9`). */
export function validateThresholdSpec(spec: unknown): ThresholdSpec {
  const r = thresholdSpecSchema.safeParse(spec);
  if (!r.success) throw invalid(r.error, spec);
  return r.data;
}

/** Override names of {@link parseThresholdSpec}, by the kind they apply to. */
const PARAMS = {
  fixed: [],
  iterative: ['t0', 'epsilon', 'batchPages'],
  adaptive: [
    'initial',
    'alpha',
    'beta',
    'gamma',
    'mu',
    'expectedPerInterval',
    'intervalMs',
    'min',
    'max',
  ],
} as const;

export type ThresholdOverrides = Partial<
  Record<(typeof PARAMS)['iterative' | 'adaptive'][number], number | string>
>;

/**
 * The spec of the CLI form `--threshold 0.1|iterative|adaptive` plus parameter flags
 * (`overrides`, numbers or numeric strings; unset ones take {@link THRESHOLD_DEFAULTS}).
 * An override that does not apply to the kind is an error naming it.
 */
export function parseThresholdSpec(
  flag: string | number,
  overrides: ThresholdOverrides = {},
): ThresholdSpec {
  const text = String(flag).trim();
  const kind: ThresholdKind =
    text === 'iterative' || text === 'adaptive'
      ? text
      : /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(text)
        ? 'fixed'
        : (() => {
            throw new InvalidOptionError(
              `threshold: expected a number in [0, 1], "iterative" or "adaptive", got ${JSON.stringify(flag)}`,
            );
          })();
  const spec: Record<string, unknown> =
    kind === 'fixed'
      ? { kind, value: Number(text) }
      : { kind, ...(THRESHOLD_DEFAULTS[kind] as Record<string, number>) };
  const allowed: readonly string[] = PARAMS[kind];
  for (const [name, raw] of Object.entries(overrides)) {
    if (raw === undefined) continue;
    const owner = (['iterative', 'adaptive'] as const).find((k) =>
      (PARAMS[k] as readonly string[]).includes(name),
    );
    if (owner === undefined) throw new InvalidOptionError(`threshold: unknown parameter ${name}`);
    if (!allowed.includes(name)) {
      throw new InvalidOptionError(
        `threshold.${name}: applies to an ${owner} threshold only, not to ${kind === 'fixed' ? `a fixed one (${text})` : `an ${kind} one`}`,
      );
    }
    const n = typeof raw === 'number' ? raw : raw.trim() === '' ? Number.NaN : Number(raw);
    if (Number.isNaN(n)) {
      throw new InvalidOptionError(
        `threshold.${name}: expected a number, got ${JSON.stringify(raw)}`,
      );
    }
    spec[name] = n;
  }
  return validateThresholdSpec(spec);
}

/**
 * A threshold that separates scored training examples: the cut between two consecutive
 * distinct scores with the best balanced accuracy ((TPR + TNR)/2; ties go to the lowest
 * cut, which keeps more), placed midway between the two. Undefined without both classes.
 */
export function separatingThreshold(
  positive: readonly number[],
  negative: readonly number[],
): number | undefined {
  if (positive.length === 0 || negative.length === 0) return undefined;
  const values = [...new Set([...positive, ...negative])].sort((a, b) => a - b);
  let best: number | undefined;
  let bestScore = -1;
  for (let j = 0; j + 1 < values.length; j++) {
    const t = ((values[j] as number) + (values[j + 1] as number)) / 2;
    const tpr = positive.filter((x) => x >= t).length / positive.length;
    const tnr = negative.filter((x) => x < t).length / negative.length;
    const score = (tpr + tnr) / 2;
    if (score > bestScore) {
      bestScore = score;
      best = t;
    }
  }
  return best;
}
