// Ground-truth labels for evaluation: the test web's labels JSON (all topics or one)
// or a plain list of relevant URLs, one per line. Parsing is pure; `readLabelsFile`
// reads the file. Every URL is canonicalised, so the same URL written differently
// matches what the crawl stored.
import { readFileSync } from 'node:fs';
import { InvalidOptionError } from '../errors/index.js';
import { jsonSyntaxError } from '../relevance/json-scan.js';
import { canonicalizeUrl } from '../url/index.js';
import { unreadableReason } from '../util/index.js';

/** The set of relevant URLs an evaluation measures against. */
export interface LabelSet {
  /** Where the labels came from (the file name, or what the caller passed). */
  source: string;
  /** `json` (the test web's labels) or `urls` (one URL per line). */
  format: 'json' | 'urls';
  /** The labelled topic's id, when the labels name one. */
  topic: string | null;
  /** The labelled topic's name, when the labels give one. */
  topicName: string | null;
  /** Canonical relevant URLs (duplicates removed). */
  relevant: ReadonlySet<string>;
  /** Seed URLs the labels suggest (the test web's labels list some), canonical. */
  seeds: string[];
}

export interface LabelsOptions {
  /** Which topic of a labels JSON with several topics; checked against a single topic's id. */
  topic?: string | undefined;
}

const fail = (message: string, cause?: unknown) =>
  new InvalidOptionError(message, cause === undefined ? {} : { cause });

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    // V8's messages do not always carry the offset: the topic files' scanner finds it.
    const { line, column, what } = jsonSyntaxError(text, cause);
    throw fail(`${source}: invalid JSON (line ${line}, column ${column}): ${what}`, cause);
  }
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === 'object' && !Array.isArray(x);

/** Canonical URLs of a JSON array of URLs; errors name the field and index. */
function urlArray(value: unknown, source: string, field: string): string[] {
  if (!Array.isArray(value)) throw fail(`${source}: ${field} must be an array of URLs`);
  return value.map((u, i) => {
    const c = typeof u === 'string' ? canonicalizeUrl(u.trim()) : null;
    if (c === null) {
      throw fail(`${source}: ${field}[${i}]: ${JSON.stringify(u)} is not an http(s) URL`);
    }
    return c;
  });
}

function fromTopicObject(
  t: Record<string, unknown>,
  source: string,
  field: string,
): Omit<LabelSet, 'source' | 'format'> {
  const prefix = field === '' ? '' : `${field}.`;
  const relevant = urlArray(t['relevant'], source, `${prefix}relevant`);
  const seeds = t['seeds'] === undefined ? [] : urlArray(t['seeds'], source, `${prefix}seeds`);
  return {
    topic: typeof t['id'] === 'string' ? t['id'] : null,
    topicName: typeof t['name'] === 'string' ? t['name'] : null,
    relevant: new Set(relevant),
    seeds,
  };
}

function fromJson(text: string, source: string, o: LabelsOptions): LabelSet {
  const data = parseJson(text, source);
  if (!isObject(data)) {
    throw fail(`${source}: expected the test web's labels (an object with "topics" or "relevant")`);
  }
  let picked: Omit<LabelSet, 'source' | 'format'>;
  if (Array.isArray(data['topics'])) {
    const topics = data['topics'];
    const ids = topics.map((t) => (isObject(t) && typeof t['id'] === 'string' ? t['id'] : null));
    const list = ids.filter((x): x is string => x !== null).join(', ');
    if (o.topic === undefined) {
      if (topics.length !== 1) {
        throw fail(
          `${source}: the labels hold ${topics.length} topics; pick one (topics: ${list})`,
        );
      }
    }
    const i = o.topic === undefined ? 0 : ids.indexOf(o.topic);
    const t = topics[i];
    if (i < 0 || !isObject(t)) {
      throw fail(`${source}: no topic "${o.topic}" in the labels (topics: ${list || 'none'})`);
    }
    picked = fromTopicObject(t, source, `topics[${i}]`);
  } else if ('relevant' in data) {
    picked = fromTopicObject(data, source, '');
    if (o.topic !== undefined && picked.topic !== null && picked.topic !== o.topic) {
      throw fail(`${source}: the labels are for topic "${picked.topic}", not "${o.topic}"`);
    }
  } else {
    throw fail(
      `${source}: expected the test web's labels: an object with "topics" (all topics) or "relevant" (one topic)`,
    );
  }
  return { source, format: 'json', ...picked };
}

function fromLines(text: string, source: string): LabelSet {
  const relevant = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const c = canonicalizeUrl(line);
    if (c === null) throw fail(`${source}:${i + 1}: "${line}" is not an http(s) URL`);
    relevant.add(c);
  });
  return { source, format: 'urls', topic: null, topicName: null, relevant, seeds: [] };
}

/**
 * Parses labels: JSON (the output of `focuscrawl testweb labels`, all topics or one
 * topic's object) when the text starts with `{`, else one relevant URL per line
 * (blank lines and `#` comments ignored). Errors (`InvalidOptionError`) start with
 * `source` and name the line or the JSON field.
 */
export function parseLabels(text: string, source: string, options: LabelsOptions = {}): LabelSet {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const json = body.trimStart().startsWith('{');
  if (!json && options.topic !== undefined) {
    throw fail(
      `${source}: a list of URLs has no topics; the topic "${options.topic}" cannot be picked`,
    );
  }
  const set = json ? fromJson(body, source, options) : fromLines(body, source);
  if (set.relevant.size === 0) {
    throw fail(`${source}: no relevant URL in the labels`);
  }
  return set;
}

/** Reads and parses a labels file (see `parseLabels`). */
export function readLabelsFile(path: string, options: LabelsOptions = {}): LabelSet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw fail(`${path}: cannot read the labels file (${unreadableReason(cause)})`, cause);
  }
  return parseLabels(text, path, options);
}
