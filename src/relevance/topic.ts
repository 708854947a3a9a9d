/**
 * Topics: weighted keywords (DESIGN 1.1), optionally with seeds, a threshold, a
 * language, the preferred relevance model and the idf of the keywords (DESIGN 1.5,
 * written by `focuscrawl topic learn`), read from JSON topic files:
 *
 * ```json
 * { "name": "电网", "keywords": { "电网": 1, "power grid": 0.8 },
 *   "seeds": ["http://www.sgcc.com.cn/"], "threshold": 0.1, "language": "zh",
 *   "model": "tfidf", "idf": { "电网": 0.7, "power grid": 1.9 }, "documents": 40 }
 * ```
 *
 * `idf` may hold words that are not keywords (they are kept and unused: a keyword
 * removed by hand keeps its idf should it come back) and may miss keywords (the tfidf
 * model then gives them the largest idf of the file, see tfidf-model.ts).
 *
 * Keywords are normalised as the tokeniser normalises text (NFKC, lower-case,
 * whitespace collapsed); two keywords that normalise alike are an error. Seeds are
 * canonicalised. Every error is a `TopicFileError` naming the file and the line and
 * column (JSON syntax) or the field (`keywords."power grid"`).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TopicFileError } from '../errors/index.js';
import { normalizeKeyword } from '../text/index.js';
import { canonicalizeUrl } from '../url/index.js';
import { unreadableReason, valueAt } from '../util/index.js';
import { jsonSyntaxError, lineColumn, scanJson } from './json-scan.js';

export interface TopicKeyword {
  /** Normalised keyword (a word or a phrase). */
  word: string;
  /** Its weight w_i, > 0. */
  weight: number;
}

export interface Topic {
  name?: string;
  /** In file order. */
  keywords: TopicKeyword[];
  /** Canonical seed URLs. */
  seeds?: string[];
  /** The keep/discard threshold the topic was tuned for, in [0, 1]. */
  threshold?: number;
  /** Main language of the topic's pages, e.g. `zh` or `en`. */
  language?: string;
  /** The relevance model the topic was made for. */
  model?: TopicModelName;
  /** idf of keywords (normalised like them): ln(N / n_k + 0.01), see tfidf.ts. */
  idf?: Record<string, number>;
  /** N: the training documents the idf was computed from. */
  documents?: number;
}

/** Relevance models a topic can name as its preferred one. */
export const TOPIC_MODELS = ['vsm', 'tfidf'] as const;
export type TopicModelName = (typeof TOPIC_MODELS)[number];

const weight = z.number({ error: 'expected a positive number' }).positive({
  error: 'expected a positive number',
});

export const topicFileSchema = z.strictObject({
  name: z.string({ error: 'expected a string' }).optional(),
  keywords: z.record(z.string(), weight, {
    error: 'expected an object mapping each keyword to its weight',
  }),
  seeds: z
    .array(z.string({ error: 'expected a URL string' }), {
      error: 'expected an array of URLs',
    })
    .optional(),
  threshold: z
    .number({ error: 'expected a number in [0, 1]' })
    .min(0, { error: 'expected a number in [0, 1]' })
    .max(1, { error: 'expected a number in [0, 1]' })
    .optional(),
  language: z.string({ error: 'expected a string' }).optional(),
  model: z.enum(TOPIC_MODELS, { error: 'expected "vsm" or "tfidf"' }).optional(),
  idf: z
    .record(
      z.string(),
      z
        .number({ error: 'expected a non-negative number' })
        .min(0, { error: 'expected a non-negative number' }),
      { error: 'expected an object mapping keywords to their idf' },
    )
    .optional(),
  documents: z
    .number({ error: 'expected a positive integer' })
    .int({ error: 'expected a positive integer' })
    .positive({ error: 'expected a positive integer' })
    .optional(),
});

/** A topic as written in a file (before normalisation). */
export type TopicInput = z.input<typeof topicFileSchema>;

const ALLOWED_FIELDS = Object.keys(topicFileSchema.shape).join(', ');

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** `keywords."power grid"`, `seeds[2]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else {
      const s = String(p);
      const part = IDENT.test(s) ? s : JSON.stringify(s);
      out += out === '' ? part : `.${part}`;
    }
  }
  return out;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? String(v);
  return 'an object';
}

/**
 * Validates and normalises a topic given as data (e.g. parsed JSON). `sourceName`
 * (a file name) starts every error message.
 */
export function createTopic(data: unknown, sourceName = 'topic'): Topic {
  const parsed = topicFileSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    // An unknown field is usually a misspelt one: report it before what it leaves missing.
    const issue = issues.find((x) => x.code === 'unrecognized_keys') ?? issues[0];
    if (issue === undefined) throw new TopicFileError(`${sourceName}: invalid topic`);
    if (issue.code === 'unrecognized_keys') {
      const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
      throw new TopicFileError(
        `${sourceName}: ${where}unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} (allowed: ${ALLOWED_FIELDS})`,
        { cause: parsed.error },
      );
    }
    const where = issue.path.length > 0 ? formatPath(issue.path) : '(top level)';
    const value = valueAt(data, issue.path);
    const message =
      issue.path.length === 0 ? 'expected a JSON object with a "keywords" field' : issue.message;
    const detail =
      value === undefined ? `missing field (${message})` : `${message}, got ${describe(value)}`;
    throw new TopicFileError(`${sourceName}: ${where}: ${detail}`, { cause: parsed.error });
  }
  const t = parsed.data;
  const keywords: TopicKeyword[] = [];
  const firstRaw = new Map<string, string>();
  for (const [raw, w] of Object.entries(t.keywords)) {
    const word = normalizeKeyword(raw);
    const field = `keywords.${JSON.stringify(raw)}`;
    if (word === '') throw new TopicFileError(`${sourceName}: ${field}: empty keyword`);
    const earlier = firstRaw.get(word);
    if (earlier !== undefined) {
      throw new TopicFileError(
        `${sourceName}: ${field}: duplicate keyword: ${JSON.stringify(earlier)} and ${JSON.stringify(raw)} both normalise to ${JSON.stringify(word)}`,
      );
    }
    firstRaw.set(word, raw);
    keywords.push({ word, weight: w });
  }
  if (keywords.length === 0) {
    throw new TopicFileError(`${sourceName}: keywords: at least one keyword is needed`);
  }
  const topic: Topic = { keywords };
  if (t.name !== undefined) topic.name = t.name;
  if (t.seeds !== undefined) {
    topic.seeds = t.seeds.map((s, i) => {
      const url = canonicalizeUrl(s);
      if (url === null) {
        throw new TopicFileError(
          `${sourceName}: seeds[${i}]: ${JSON.stringify(s)} is not an http(s) URL`,
          { url: s },
        );
      }
      return url;
    });
  }
  if (t.threshold !== undefined) topic.threshold = t.threshold;
  if (t.language !== undefined) topic.language = t.language;
  if (t.model !== undefined) topic.model = t.model;
  if (t.idf !== undefined) {
    const idf: Record<string, number> = {};
    const firstIdf = new Map<string, string>();
    for (const [raw, value] of Object.entries(t.idf)) {
      const word = normalizeKeyword(raw);
      const field = `idf.${JSON.stringify(raw)}`;
      if (word === '') throw new TopicFileError(`${sourceName}: ${field}: empty word`);
      const earlier = firstIdf.get(word);
      if (earlier !== undefined) {
        throw new TopicFileError(
          `${sourceName}: ${field}: duplicate word: ${JSON.stringify(earlier)} and ${JSON.stringify(raw)} both normalise to ${JSON.stringify(word)}`,
        );
      }
      firstIdf.set(word, raw);
      idf[word] = value;
    }
    topic.idf = idf;
  }
  if (t.documents !== undefined) topic.documents = t.documents;
  return topic;
}

/** Parses the text of a JSON topic file; `sourceName` (the file name) starts every error. */
export function parseTopic(text: string, sourceName = 'topic'): Topic {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (cause) {
    const { line, column, what } = jsonSyntaxError(body, cause);
    throw new TopicFileError(
      `${sourceName}: line ${line}, column ${column}: invalid JSON: ${what}`,
      { cause },
    );
  }
  const dup = scanJson(body).duplicates[0];
  if (dup !== undefined) {
    const { line, column } = lineColumn(body, dup.at);
    const where = dup.path.length > 0 ? `${formatPath(dup.path)}: ` : '';
    throw new TopicFileError(
      `${sourceName}: line ${line}, column ${column}: ${where}duplicate key ${JSON.stringify(dup.key)}`,
    );
  }
  return createTopic(data, sourceName);
}

/** Reads and parses a JSON topic file (synchronously: topic files are small). */
export function loadTopicFile(path: string): Topic {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new TopicFileError(`${path}: cannot read the topic file (${unreadableReason(cause)})`, {
      cause,
    });
  }
  return parseTopic(text, path);
}
