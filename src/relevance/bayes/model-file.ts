/**
 * Link model files: JSON written by `focuscrawl train` and read by `crawl --model-file`.
 * Reading checks everything before a model is built: that the file is JSON (line and
 * column of a syntax error), that it is a focuscrawl link model (`format`), that this
 * focuscrawl understands its `version`, and every field, named by its path
 * (`classifier.terms[3].positive.normal.variance`), including that the arrays agree in
 * length. Failures are `ModelFileError`s naming the file. Writing is atomic (a temporary
 * file renamed over the target), so a crash never leaves half a model.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { ModelFileError } from '../../errors/index.js';
import { unreadableReason } from '../../util/index.js';
import { jsonSyntaxError } from '../json-scan.js';
import { BANDWIDTH_RULES } from './density.js';
import {
  LINK_MODEL_FORMAT,
  LINK_MODEL_VERSION,
  LinkModel,
  type LinkModelJson,
} from './link-model.js';

const finite = z.number().finite();
const count = z.number().int().min(0);
const normal = z.strictObject({ mean: finite, variance: finite.positive() });
const sample = z
  .strictObject({ values: z.array(finite), counts: z.array(count) })
  .refine((s) => s.values.length === s.counts.length, {
    message: 'values and counts differ in length',
  });
const classStats = z.union([z.strictObject({ normal }), z.strictObject({ sample })]);
const metrics = z.strictObject({
  method: z.enum(['cross-validation', 'next-examples']),
  folds: count,
  examples: count,
  accuracy: finite.min(0).max(1),
  precision: finite.min(0).max(1),
  recall: finite.min(0).max(1),
  f1: finite.min(0).max(1),
});
const pair = (n: z.ZodNumber) => z.strictObject({ positive: n, negative: n });

const schema = z.strictObject({
  format: z.literal(LINK_MODEL_FORMAT),
  version: z.literal(LINK_MODEL_VERSION),
  createdAt: z.string(),
  features: z.strictObject({ contextChars: z.number().int().min(0).max(10_000) }),
  training: z.strictObject({
    positive: count.min(1),
    negative: count.min(1),
    maxTerms: count.min(1),
    minDocs: count.min(1),
  }),
  documentFrequencies: z.array(count),
  classifier: z.strictObject({
    version: z.literal(1),
    density: z.enum(['normal', 'kernel']),
    bandwidth: z.enum(Object.keys(BANDWIDTH_RULES) as [keyof typeof BANDWIDTH_RULES]),
    vocabulary: z.array(z.string()),
    priors: pair(finite.min(0).max(1)),
    counts: pair(count),
    sigma: pair(finite.positive()),
    terms: z.array(z.strictObject({ positive: classStats, negative: classStats })),
  }),
  metrics: metrics.nullable(),
});

const fail = (source: string, message: string, cause?: unknown) =>
  new ModelFileError(`${source}: ${message}`, cause === undefined ? {} : { cause });

function path(p: readonly PropertyKey[]): string {
  let s = '';
  for (const k of p) s += typeof k === 'number' ? `[${k}]` : s === '' ? String(k) : `.${String(k)}`;
  return s || '(file)';
}

/** Validates a parsed model file; `source` names it in errors. */
export function parseLinkModel(data: unknown, source: string): LinkModel {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw fail(source, 'not a focuscrawl link model (expected a JSON object)');
  }
  const d = data as Record<string, unknown>;
  if (d['format'] !== LINK_MODEL_FORMAT) {
    throw fail(
      source,
      `not a focuscrawl link model (format is ${JSON.stringify(d['format']) ?? 'missing'}, expected "${LINK_MODEL_FORMAT}")`,
    );
  }
  if (typeof d['version'] === 'number' && d['version'] > LINK_MODEL_VERSION) {
    throw fail(
      source,
      `link model version ${d['version']} was written by a newer focuscrawl (this one reads version ${LINK_MODEL_VERSION})`,
    );
  }
  const r = schema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw fail(source, `${path(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`, r.error);
  }
  const json = r.data as LinkModelJson;
  const c = json.classifier;
  const v = c.vocabulary.length;
  if (c.terms.length !== v) {
    throw fail(source, `classifier.terms: ${c.terms.length} entries for ${v} vocabulary terms`);
  }
  if (json.documentFrequencies.length !== v) {
    throw fail(
      source,
      `documentFrequencies: ${json.documentFrequencies.length} entries for ${v} vocabulary terms`,
    );
  }
  const kind = c.density === 'normal' ? 'normal' : 'sample';
  c.terms.forEach((t, i) => {
    for (const cls of ['positive', 'negative'] as const) {
      if (!(kind in t[cls])) {
        throw fail(
          source,
          `classifier.terms[${i}].${cls}: a ${c.density} model needs "${kind}" statistics`,
        );
      }
    }
  });
  return new LinkModel(json);
}

/** Reads and validates a model file. */
export async function readLinkModelFile(file: string): Promise<LinkModel> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw fail(
      file,
      `cannot read the link model (${unreadableReason(cause, 'is a folder')})`,
      cause,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (cause) {
    const { line, column, what } = jsonSyntaxError(text, cause);
    throw fail(file, `invalid JSON (line ${line}, column ${column}): ${what}`, cause);
  }
  return parseLinkModel(data, file);
}

/** Writes a model file atomically. */
export async function writeLinkModelFile(file: string, model: LinkModel): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify(model.json)}\n`);
    await rename(tmp, file);
  } catch (cause) {
    throw fail(file, `cannot write the link model (${(cause as Error).message})`, cause);
  }
}
