/**
 * Before the first fetch: open (or take) the store, return URLs a dead run left in
 * processing, resolve the topic, seed, and record the topic and the run.
 */
import { InvalidOptionError, TopicChangedError } from '../errors/index.js';
import { loadRules, parseRules, type Rules } from '../extract/index.js';
import type { FetchResult } from '../fetch/index.js';
import {
  DEFAULT_THRESHOLD,
  META_THRESHOLD,
  type ThresholdHistory,
  type Topic,
} from '../relevance/index.js';
import type { ThresholdPolicy } from '../relevance/threshold.js';
import {
  parseThresholdSpec,
  type ThresholdOverrides,
  type ThresholdSpec,
} from '../relevance/threshold-spec.js';
import { loadSiteModel, parseSiteModel, type SiteModel } from '../sitemodel/index.js';
import {
  acquireRunLock,
  isPgLocation,
  openPgStore,
  openThreadedStore,
  PgStore,
  type StateCounts,
  type Store,
  storeExists,
} from '../store/index.js';
import { canonicalizeUrlOrThrow } from '../url/index.js';
import { type Coordination, localCoordination, openCoordination } from './coordination.js';
import { CrawlLease } from './lease.js';
import { chooseModels, type ModelChoice } from './models.js';
import type { CrawlOptions } from './options.js';
import { SharedThreshold } from './shared-threshold.js';
import { learnOrReuse } from './site-model-learn.js';
import { backfillText } from './text-backfill.js';
import { STORE_THREAD_HEAP } from './thread.js';
import { resolveTopic } from './topic.js';
import {
  type CrawlRunRecord,
  META_RUNS,
  META_SETTINGS,
  META_TOPIC,
  type StoredTopic,
} from './types.js';

export interface Setup {
  store: Store;
  /** Whether `crawl` opened the store (and so closes it). */
  ownsStore: boolean;
  topic: Topic;
  /** The models that score links and judge pages, and the strategy. */
  models: ModelChoice;
  /** The keep/discard threshold, resumed from the store's history when its kind is unchanged. */
  threshold: ThresholdPolicy;
  /**
   * Which process runs the crawl's adaptation, learning and ranking when several crawl
   * the store (coordination.ts); always this one for a store only it crawls.
   */
  coordination: Coordination;
  seeds: Set<string>;
  resumed: boolean;
  recovered: number;
  seedsAdded: number;
  counts: StateCounts;
  fetchedTotal: number;
  runs: CrawlRunRecord[];
  warnings: string[];
  /** Gives back the store's run lock (a no-op for a store given as an object). */
  unlock: () => void;
  /** The run's claims on the store (lease.ts); the engine closes it. */
  lease: CrawlLease;
  /**
   * Politeness shared with the other workers of a database store (the fetcher's
   * `hostGate` and `hostDone`); undefined for a store only this process crawls.
   */
  hostGate: ((host: string, delayMs: number) => Promise<number>) | undefined;
  hostDone: ((host: string, delayMs: number) => void) | undefined;
  /**
   * The request budget of `watch` shared by every process of a database store: takes
   * `count` requests, resolves to the ms before the first may start (watch/budget.ts);
   * undefined for a store only this process crawls.
   */
  takeBudget: ((count: number, intervalMs: number) => Promise<number>) | undefined;
  /** The field extraction rules (`extract`), read and checked. */
  extract: Rules | undefined;
  /** The site model links are filtered by (`siteModel`), read and checked. */
  siteModel: SiteModel | undefined;
  /**
   * Responses of the site model's sample (`siteModel: 'learn'`) for pages of valid
   * patterns: the run's fetcher answers them from memory, once (fetch/primed.ts).
   */
  primed: Map<string, FetchResult>;
}

/** The default threshold when the link model judges pages: Pr(+ | page) ≥ ½. */
export const BAYES_PAGE_THRESHOLD = 0.5;

function total(c: StateCounts): number {
  return c.waiting + c.processing + c.complete + c.discard + c.error;
}

function noSeeds(): Error {
  return new InvalidOptionError(
    'no seeds: give seed URLs (--seeds) or list them in the topic file',
  );
}

/** `2 keywords added (a, b), 1 removed (c), 1 reweighted (d)`. */
export function keywordChange(
  before: Record<string, number>,
  after: Record<string, number>,
): string {
  const added = Object.keys(after).filter((k) => !(k in before));
  const removed = Object.keys(before).filter((k) => !(k in after));
  const reweighted = Object.keys(after).filter((k) => k in before && before[k] !== after[k]);
  const part = (n: string[], what: string) =>
    n.length === 0
      ? []
      : [`${n.length} ${what} (${n.slice(0, 3).join(', ')}${n.length > 3 ? ', …' : ''})`];
  const parts = [
    ...part(added, 'keywords added'),
    ...part(removed, 'removed'),
    ...part(reweighted, 'reweighted'),
  ];
  return parts.length > 0 ? parts.join(', ') : 'keyword order';
}

function topicChanged(before: Record<string, number>, after: Record<string, number>): Error {
  return new TopicChangedError(
    `the topic differs from the one this store was crawled with: ${keywordChange(before, after)}. Two topics would mix in one store: leave --topic out to resume with the store's topic, give --new-topic to crawl on with this one, or crawl into a new --store`,
  );
}

/** The threshold spec of the `threshold` option (the topic's threshold when unset). */
export function thresholdSpecOf(
  option: CrawlOptions['threshold'],
  topicThreshold: number | undefined,
): ThresholdSpec {
  if (option === undefined) return { kind: 'fixed', value: topicThreshold ?? DEFAULT_THRESHOLD };
  if (typeof option === 'number') return { kind: 'fixed', value: option };
  if (typeof option === 'string') return parseThresholdSpec(option);
  const { kind, value, ...rest } = option;
  if (kind === 'fixed') {
    if (Object.keys(rest).length > 0) {
      throw new InvalidOptionError(
        `threshold: a fixed threshold takes only "value", not ${Object.keys(rest).join(', ')}`,
      );
    }
    return parseThresholdSpec(typeof value === 'number' ? value : String(value));
  }
  if (value !== undefined) {
    throw new InvalidOptionError(`threshold.value: applies to a fixed threshold only, not ${kind}`);
  }
  return parseThresholdSpec(kind, rest as ThresholdOverrides);
}

export async function setUp(o: CrawlOptions): Promise<Setup> {
  const primed = new Map<string, FetchResult>();
  if (o.relearn && o.siteModel === undefined)
    throw new InvalidOptionError(
      'relearn (--relearn) needs a site model (--site-model FILE|learn)',
    );
  // Read first: a bad file fails before the store is touched.
  const siteModel =
    o.siteModel === undefined || o.siteModel === 'learn'
      ? undefined
      : typeof o.siteModel === 'string'
        ? await loadSiteModel(o.siteModel)
        : parseSiteModel(o.siteModel, 'siteModel');
  const extract =
    o.extract === undefined
      ? undefined
      : typeof o.extract === 'string'
        ? await loadRules(o.extract)
        : parseRules(JSON.stringify(o.extract), 'extract');
  const topic = resolveTopic(o.topic);
  if (topic.keywords.length === 0) {
    throw new InvalidOptionError('the topic has no keywords: give at least one { "word": weight }');
  }
  const models = await chooseModels(o, topic);
  // The topic's threshold is meant for its keyword model; Pr(+) is judged at ½.
  const spec = thresholdSpecOf(
    o.threshold,
    models.page === 'bayes' ? BAYES_PAGE_THRESHOLD : topic.threshold,
  );
  const seedList = [...(topic.seeds ?? []), ...o.seeds].map((s, i) => {
    try {
      return canonicalizeUrlOrThrow(s);
    } catch (cause) {
      throw new InvalidOptionError(`seed ${i + 1} ${JSON.stringify(s)} is not an http(s) URL`, {
        cause,
      });
    }
  });
  if (typeof o.store === 'string' && seedList.length === 0 && !(await storeExists(o.store))) {
    throw noSeeds();
  }
  const ownsStore = typeof o.store === 'string';
  // A database store is shared by the runs of many machines: each holds its claims
  // under its lease, and none owns the store.
  const shared = typeof o.store === 'string' && isPgLocation(o.store);
  // One crawl at a time on a store directory (store/run-lock.ts): taken before the
  // recovery below, which would otherwise take a running crawl's claims from it.
  const unlock = typeof o.store === 'string' && !shared ? acquireRunLock(o.store) : () => {};
  let store: Store;
  try {
    // A store given by path runs on a thread of its own; the bodies committed to it
    // are the engine's, no longer used once committed, so their memory moves there.
    store =
      typeof o.store !== 'string'
        ? o.store
        : shared
          ? await openPgStore(o.store, { create: true })
          : await openThreadedStore(o.store, {
              create: true,
              transferBodies: true,
              heap: STORE_THREAD_HEAP,
            });
  } catch (e) {
    unlock();
    throw e;
  }
  let coordination: Coordination = localCoordination;
  try {
    const before = await store.counts();
    const resumed = total(before) > 0;
    if (!resumed && seedList.length === 0) {
      throw noSeeds();
    }
    const warnings: string[] = [];
    const stored = await store.getMeta<StoredTopic>(META_TOPIC);
    const keywords = Object.fromEntries(topic.keywords.map((k) => [k.word, k.weight]));
    if (stored && JSON.stringify(stored.keywords) !== JSON.stringify(keywords)) {
      if (!o.newTopic) throw topicChanged(stored.keywords, keywords);
      warnings.push(
        `the topic differs from the one this store was crawled with (${keywordChange(stored.keywords, keywords)}): crawling on with the new one (--new-topic)`,
      );
    }
    coordination = await openCoordination(store);
    const saved = await store.getMeta<ThresholdHistory>(META_THRESHOLD);
    const threshold = new SharedThreshold(
      spec,
      saved?.kind === spec.kind ? saved : undefined,
      coordination,
      store,
    );
    if (stored && spec.kind === 'fixed' && stored.threshold !== threshold.value) {
      warnings.push(`the threshold changed from ${stored.threshold} to ${threshold.value}`);
    } else if (saved && saved.kind !== spec.kind) {
      warnings.push(`the threshold changed from ${saved.kind} to ${spec.kind}: starting afresh`);
    }
    // A process joining a shared crawl leaves the coordinator's threshold as it is.
    if (!coordination.shared || saved?.kind !== spec.kind || saved.value !== threshold.value)
      await store.setMeta(META_THRESHOLD, threshold.history());
    // Leases this process left (a crawl thread that died) are stale while the run
    // lock is ours; other runs' claims come back only when their lease is lost.
    const stale = ownsStore && !shared ? await CrawlLease.closeStale(store) : 0;
    const recovered = stale + (await store.recover());
    // Full text turned on: the pages kept without it are indexed now (text-backfill.ts).
    if (resumed && o.fullText === 'kept') {
      warnings.push(...(await backfillText(store, { contextChars: models.contextChars })));
    }
    const seedsAdded = seedList.length > 0 ? await store.addSeeds(seedList) : 0;
    await store.setKeywords(keywords);
    await store.setMeta(META_TOPIC, {
      name: topic.name ?? null,
      keywords,
      threshold: threshold.value,
    } satisfies StoredTopic);
    if (o.settings !== undefined) await store.setMeta(META_SETTINGS, o.settings);
    const runs = (await store.getMeta<CrawlRunRecord[]>(META_RUNS)) ?? [];
    const stats = await store.stats({ topHosts: 0 });
    const lease = await CrawlLease.open(store);
    return {
      store,
      ownsStore,
      topic,
      models,
      threshold,
      seeds: new Set(await store.getSeeds()),
      resumed,
      recovered,
      seedsAdded,
      counts: stats.counts,
      fetchedTotal: stats.responses,
      runs,
      warnings,
      coordination,
      unlock: () => {
        unlock();
        void coordination.close();
      },
      lease,
      ...sharedPoliteness(store, o),
      takeBudget:
        store instanceof PgStore ? (n, ms) => store.takeBudget('watch', n, ms) : undefined,
      extract,
      siteModel:
        o.siteModel === 'learn'
          ? await learnOrReuse(
              o.store,
              [...(await store.getSeeds())],
              o.fetcher,
              (m) => warnings.push(m),
              store,
              primed,
            )
          : siteModel,
      primed,
    };
  } catch (e) {
    await coordination.close().catch(() => {});
    if (ownsStore) await store.close().catch(() => {});
    unlock();
    throw e;
  }
}

/**
 * The fetcher's shared politeness for a store that workers share: the host's limit
 * of requests at once is the crawl's per-host limit, all workers together; a request
 * holds the host at most its timeouts (and a little more) if its worker dies.
 */
function sharedPoliteness(store: Store, o: CrawlOptions): Pick<Setup, 'hostGate' | 'hostDone'> {
  if (!(store instanceof PgStore)) return { hostGate: undefined, hostDone: undefined };
  const limits = {
    perHost: o.fetcher.perHostConcurrency,
    holdMs: o.fetcher.connectTimeoutMs + o.fetcher.totalTimeoutMs + 5_000,
  };
  return {
    hostGate: (host, delayMs) => store.acquireHost(host, delayMs, limits),
    hostDone: (host, delayMs) => store.releaseHost(host, delayMs),
  };
}
