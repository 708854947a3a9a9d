/**
 * The feed (docs/scale-out.md, "The coordinator"): what a process that is not the
 * coordinator judged, sent in batches to the one that is, so that the coordinator's
 * jobs see the pages of every process. Each job adds its part to a batch (`take`) and
 * reads its part of the batches of the others (`absorb`); a batch is plain JSON.
 */
import type { CollectedTerms } from '../relevance/index.js';

/** One batch: the parts of the jobs that had something to send. */
export interface FeedBatch {
  /** Every judged page's relevance, in judging order (the threshold's observations). */
  relevance?: number[];
  /** Term statistics of the pages judged (topic adaptation); `kept` counts the kept pages. */
  terms?: { relevant: CollectedTerms; background: CollectedTerms; kept: number };
  /** Judged pages as learning examples: URL, link context (null: none), kept. */
  examples?: [url: string, context: string | null, kept: boolean][];
  /** Judged pages' followed links (PageRank's graph). */
  links?: [url: string, to: string[]][];
}

/** Whether a batch carries nothing. */
export function isEmptyBatch(b: FeedBatch): boolean {
  return (
    (b.relevance?.length ?? 0) === 0 &&
    (b.terms === undefined || b.terms.relevant.documents + b.terms.background.documents === 0) &&
    (b.examples?.length ?? 0) === 0 &&
    (b.links?.length ?? 0) === 0
  );
}

const isArray = (x: unknown): x is unknown[] => Array.isArray(x);
const isTerms = (x: unknown): x is CollectedTerms =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as CollectedTerms).documents === 'number' &&
  typeof (x as CollectedTerms).terms === 'object' &&
  (x as CollectedTerms).terms !== null;

/**
 * Reads a batch sent by another process, keeping the parts that have the expected
 * shape (a batch of another version of focuscrawl loses only what this one cannot read);
 * null when the text is not a batch at all.
 */
export function decodeBatch(text: string): FeedBatch | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const b: FeedBatch = {};
  if (isArray(r['relevance'])) {
    b.relevance = r['relevance'].filter((x): x is number => typeof x === 'number');
  }
  const t = r['terms'] as Record<string, unknown> | undefined;
  if (t && isTerms(t['relevant']) && isTerms(t['background']) && typeof t['kept'] === 'number') {
    b.terms = { relevant: t['relevant'], background: t['background'], kept: t['kept'] };
  }
  if (isArray(r['examples'])) {
    b.examples = r['examples'].filter(
      (e): e is [string, string | null, boolean] =>
        isArray(e) &&
        typeof e[0] === 'string' &&
        (typeof e[1] === 'string' || e[1] === null) &&
        typeof e[2] === 'boolean',
    );
  }
  if (isArray(r['links'])) {
    b.links = r['links'].filter(
      (e): e is [string, string[]] =>
        isArray(e) &&
        typeof e[0] === 'string' &&
        isArray(e[1]) &&
        e[1].every((u) => typeof u === 'string'),
    );
  }
  return b;
}
