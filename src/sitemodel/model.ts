/**
 * The site model file: JSON a person can read and edit (docs/site-model.md describes
 * every field). Reading checks that the text is JSON (line and column of a syntax
 * error), the version, every field by its path (`clusters[2].decision`), that each
 * pattern parses, that cluster ids are distinct, and that each `duplicateOf` names a
 * pattern of the model. Failures are ModelFileErrors naming the file.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { ModelFileError } from '../errors/index.js';
import { jsonSyntaxError } from '../relevance/json-scan.js';
import { formatPath } from '../relevance/topic.js';
import { parsePattern } from '../url/index.js';
import { unreadableReason } from '../util/index.js';

export const SITE_MODEL_VERSION = 1;

const count = z.number().int().min(0);
const finite = z.number().finite();
const text = z.string().min(1);

const threshold = z.strictObject({ value: finite.min(0), rule: z.string() });

export const siteModelSchema = z.strictObject({
  version: z.literal(SITE_MODEL_VERSION, {
    error: `expected ${SITE_MODEL_VERSION} (a site model of another version)`,
  }),
  hosts: z.array(text).min(1),
  learnedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), {
    message: 'expected a date and time (ISO 8601)',
  }),
  sample: z.strictObject({
    pages: count,
    skipped: z.strictObject({
      status: count,
      invalidUrl: count,
      repeated: count,
      offSite: count,
    }),
    avgSize: finite.min(0),
    thresholds: z.strictObject({
      layout: threshold,
      informativeness: threshold,
      hamming: z.number().int().min(0).max(64),
      listLinks: count,
    }),
    settings: z.strictObject({
      pathDepth: z.number().int().min(1),
      maxClassTokens: z.number().int().min(0),
      minRepeat: z.number().int().min(1),
      countScale: z.enum(['log', 'raw'], { error: 'expected "log" or "raw"' }),
      minSilhouette: finite.min(-1).max(1),
      maxLayouts: z.number().int().min(2),
      templateShare: finite.gt(0).max(1),
      minDupShare: finite.gt(0).max(1),
      minContentPages: finite.min(0),
      minShare: finite.min(0).max(1),
    }),
  }),
  clusters: z.array(
    z.strictObject({
      id: z.number().int().min(1),
      kind: z.enum(['content', 'list', 'duplicate', 'no-content'], {
        error: 'expected "content", "list", "duplicate" or "no-content"',
      }),
      decision: z.enum(['valid', 'invalid'], { error: 'expected "valid" or "invalid"' }),
      informativeness: finite.min(0),
      pages: count,
      avgSize: finite.min(0),
      duplicates: count,
      listLinks: finite.min(0),
      patterns: z.array(
        z.strictObject({
          pattern: text,
          pages: count,
          role: z.enum(['content', 'duplicate'], { error: 'expected "content" or "duplicate"' }),
          duplicateOf: text.optional(),
        }),
      ),
      examples: z.array(z.string()),
    }),
  ),
});

export type SiteModel = z.output<typeof siteModelSchema>;
export type SiteModelCluster = SiteModel['clusters'][number];
export type SiteModelPattern = SiteModelCluster['patterns'][number];

const fail = (where: string, message: string, cause?: unknown) =>
  new ModelFileError(`${where}: ${message}`, cause === undefined ? {} : { cause });

/**
 * Validates a site model given as JSON text or as parsed data; `where` (a file name)
 * starts every error message: `site.json: clusters[2].decision: expected "valid" or
 * "invalid"`.
 * @throws ModelFileError (FC_ERR_MODEL_FILE).
 */
export function parseSiteModel(json: unknown, where: string): SiteModel {
  let data = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json.charCodeAt(0) === 0xfeff ? json.slice(1) : json);
    } catch (cause) {
      const { line, column, what } = jsonSyntaxError(json, cause);
      throw fail(where, `invalid JSON (line ${line}, column ${column}): ${what}`, cause);
    }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw fail(where, 'not a site model (expected a JSON object)');
  }
  const r = siteModelSchema.safeParse(data);
  if (!r.success) {
    const issues = r.error.issues;
    const issue = issues.find((x) => x.code === 'unrecognized_keys') ?? issues[0];
    const at = formatPath(issue?.path ?? []);
    const prefix = at === '' ? '' : `${at}: `;
    const message =
      issue?.code === 'unrecognized_keys'
        ? `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
        : (issue?.message ?? 'invalid');
    throw fail(where, `${prefix}${message}`, r.error);
  }
  const model = r.data;
  const ids = new Map<number, number>();
  const patterns = new Set<string>();
  model.clusters.forEach((c, i) => {
    const other = ids.get(c.id);
    if (other !== undefined) {
      throw fail(where, `clusters[${i}].id: ${c.id} is the id of clusters[${other}] too`);
    }
    ids.set(c.id, i);
    c.patterns.forEach((p, k) => {
      const at = `clusters[${i}].patterns[${k}]`;
      try {
        parsePattern(p.pattern);
      } catch (e) {
        throw fail(where, `${at}.pattern: ${(e as Error).message}`);
      }
      if (p.role === 'duplicate' && p.duplicateOf === undefined) {
        throw fail(where, `${at}.duplicateOf: a duplicate names the pattern it duplicates`);
      }
      if (p.role === 'content' && p.duplicateOf !== undefined) {
        throw fail(where, `${at}.duplicateOf: only a duplicate has one (role is "content")`);
      }
      patterns.add(p.pattern);
    });
  });
  model.clusters.forEach((c, i) => {
    c.patterns.forEach((p, k) => {
      if (p.duplicateOf !== undefined && !patterns.has(p.duplicateOf)) {
        throw fail(
          where,
          `clusters[${i}].patterns[${k}].duplicateOf: ${JSON.stringify(p.duplicateOf)} is not a pattern of the model`,
        );
      }
    });
  });
  return model;
}

/** Reads and validates a site model file. @throws ModelFileError naming the file. */
export async function loadSiteModel(file: string): Promise<SiteModel> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw fail(
      file,
      `cannot read the site model (${unreadableReason(cause, 'is a folder')})`,
      cause,
    );
  }
  return parseSiteModel(text, file);
}

/** The model as the file holds it: JSON indented by two spaces, a final newline. */
export function formatSiteModel(model: SiteModel): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}

/** Writes a site model file atomically (a temporary file renamed over the target). */
export async function writeSiteModel(file: string, model: SiteModel): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, formatSiteModel(model));
    await rename(tmp, file);
  } catch (cause) {
    throw fail(file, `cannot write the site model (${(cause as Error).message})`, cause);
  }
}
