// The threshold and topic-vector histories a crawl keeps in its store's meta
// (DESIGN 1.2, 1.5), read defensively: the values are free JSON, so malformed
// entries are skipped rather than trusted. Shared by `status` and the report.
import {
  META_THRESHOLD,
  META_TOPIC as META_TOPIC_HISTORY,
  type ThresholdChange,
  type ThresholdHistory,
  type TopicChange,
  type TopicHistory,
} from '../relevance/history.js';
import type { Store } from '../store/index.js';

export { META_THRESHOLD, META_TOPIC_HISTORY };

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isObj = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === 'object' && !Array.isArray(x);
const strings = (x: unknown): string[] =>
  Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : [];

function thresholdChange(x: unknown): ThresholdChange | null {
  if (!isObj(x) || !isNum(x['fetched']) || !isNum(x['from']) || !isNum(x['to'])) return null;
  return {
    at: isNum(x['at']) ? x['at'] : 0,
    fetched: x['fetched'],
    from: x['from'],
    to: x['to'],
    rule: typeof x['rule'] === 'string' ? x['rule'] : '',
  };
}

/** The stored threshold history without its opaque policy state; null when absent or malformed. */
export function readThresholdHistory(raw: unknown): Omit<ThresholdHistory, 'state'> | null {
  if (!isObj(raw) || !isNum(raw['initial']) || !isNum(raw['value'])) return null;
  const changes = Array.isArray(raw['changes'])
    ? raw['changes'].map(thresholdChange).filter((c): c is ThresholdChange => c !== null)
    : [];
  const kind = raw['kind'];
  return {
    kind: kind === 'iterative' || kind === 'adaptive' ? kind : 'fixed',
    initial: raw['initial'],
    value: raw['value'],
    frozen: raw['frozen'] === true,
    changes,
  };
}

function topicChange(x: unknown): TopicChange | null {
  if (!isObj(x) || !isNum(x['fetched']) || !isNum(x['drift'])) return null;
  const top = Array.isArray(x['top'])
    ? x['top'].filter(
        (e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && isNum(e[1]),
      )
    : [];
  return {
    at: isNum(x['at']) ? x['at'] : 0,
    fetched: x['fetched'],
    drift: x['drift'],
    limited: x['limited'] === true,
    added: strings(x['added']),
    removed: strings(x['removed']),
    top: top.map(([w, v]) => [w, v]),
  };
}

/** The stored topic-vector history; null when absent or malformed. */
export function readTopicHistory(raw: unknown): TopicHistory | null {
  if (!isObj(raw)) return null;
  const changes = Array.isArray(raw['changes'])
    ? raw['changes'].map(topicChange).filter((c): c is TopicChange => c !== null)
    : [];
  const keywords: Record<string, number> = {};
  if (isObj(raw['keywords'])) {
    for (const [w, v] of Object.entries(raw['keywords'])) if (isNum(v)) keywords[w] = v;
  }
  return { changes, keywords };
}

/** Both histories of a store (null where the crawl recorded none). */
export async function readAdaptation(store: Store): Promise<{
  threshold: Omit<ThresholdHistory, 'state'> | null;
  topic: TopicHistory | null;
}> {
  return {
    threshold: readThresholdHistory(await store.getMeta(META_THRESHOLD)),
    topic: readTopicHistory(await store.getMeta(META_TOPIC_HISTORY)),
  };
}
