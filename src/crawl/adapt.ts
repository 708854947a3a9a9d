/**
 * What adapts while a crawl runs: the keep/discard threshold (iterative, DESIGN 1.2;
 * adaptive, DESIGN 1.5) and, when asked, the topic vector (DESIGN 1.5: re-estimated
 * from the relevant pages fetched so far, with the drift limited). Both histories go
 * to the store's meta (`META_THRESHOLD`, `META_TOPIC_HISTORY`) as they change, so
 * that `status` and the report show them and a resumed crawl goes on from them.
 *
 * On a store several processes crawl (coordination.ts), both move in the coordinator
 * alone: the others collect their pages' term statistics and send them (`take`), the
 * coordinator adds them to its own (`absorb`), and the others take the topic vector
 * it wrote (`adopt`). The threshold is shared the same way (shared-threshold.ts).
 */
import {
  type AdaptOptions,
  adaptTopic,
  appendCapped,
  type CollectedTerms,
  createRelevanceModel,
  createTermCollector,
  META_THRESHOLD,
  META_TOPIC_HISTORY,
  type RelevanceModel,
  type RelevanceModelName,
  type TermCollector,
  type ThresholdChange,
  type TopicChange,
  type TopicHistory,
  type TopicKeyword,
} from '../relevance/index.js';
import { manualTopicChange } from './control.js';
import type { SharedJob } from './coordination.js';
import type { FeedBatch } from './feed.js';
import { type CrawlOptions, DEFAULT_ADAPT_INTERVAL_PAGES } from './options.js';
import type { Setup } from './setup.js';

/** One discarded page in this many feeds the background statistics. */
const BACKGROUND_SAMPLE = 4;

export interface AdaptEvents {
  threshold(change: ThresholdChange): void;
  topic(change: TopicChange): void;
}

interface TopicAdapter {
  relevant: TermCollector;
  background: TermCollector;
  original: TopicKeyword[];
  current: TopicKeyword[];
  history: TopicHistory;
  keptSince: number;
  every: number;
  options: Omit<AdaptOptions, 'at' | 'fetched' | 'background'>;
}

export class Adaptation implements SharedJob {
  readonly name = 'topic';
  readonly #s: Setup;
  readonly #modelName: RelevanceModelName;
  readonly #events: AdaptEvents;
  readonly #topic: TopicAdapter | null;
  /** The model in force: replaced when the topic vector changes. */
  model: RelevanceModel;
  /** Keywords set by hand (`setWeights`) while the topic does not adapt. */
  #manual: TopicKeyword[] | null = null;

  private constructor(
    s: Setup,
    modelName: RelevanceModelName,
    events: AdaptEvents,
    topic: TopicAdapter | null,
  ) {
    this.#s = s;
    this.#modelName = modelName;
    this.#events = events;
    this.#topic = topic;
    const keywords = topic?.current ?? s.topic.keywords;
    this.model = createRelevanceModel(modelName, { ...s.topic, keywords });
    if (topic !== null) s.coordination.join(this);
  }

  /** Reads a resumed crawl's topic history when the topic adapts. */
  static async create(
    o: CrawlOptions,
    s: Setup,
    modelName: RelevanceModelName,
    events: AdaptEvents,
  ): Promise<Adaptation> {
    if (o.adaptTopic === false) return new Adaptation(s, modelName, events, null);
    const { intervalPages, ...given } = o.adaptTopic === true ? {} : o.adaptTopic;
    const options: TopicAdapter['options'] = {};
    for (const [k, v] of Object.entries(given) as [keyof TopicAdapter['options'], number][]) {
      if (v !== undefined) options[k] = v;
    }
    const original = s.topic.keywords;
    const saved = await s.store.getMeta<TopicHistory>(META_TOPIC_HISTORY);
    const current =
      saved && typeof saved.keywords === 'object'
        ? Object.entries(saved.keywords).map(([word, weight]) => ({ word, weight }))
        : original;
    const words = original.map((k) => k.word);
    return new Adaptation(s, modelName, events, {
      relevant: createTermCollector({ keywords: words }),
      background: createTermCollector({ keywords: words, sampleEvery: BACKGROUND_SAMPLE }),
      original,
      current,
      history: saved ?? {
        changes: [],
        keywords: Object.fromEntries(current.map((k) => [k.word, k.weight])),
      },
      keptSince: 0,
      every: intervalPages ?? DEFAULT_ADAPT_INTERVAL_PAGES,
      options,
    });
  }

  /** Whether pages' text should be handed to `collect`. */
  get collects(): boolean {
    return this.#topic !== null;
  }

  /** A fetched page's text, for the topic statistics. */
  collect(text: string, kept: boolean): void {
    const t = this.#topic;
    if (t === null) return;
    if (kept) {
      t.relevant.add(text);
      t.keptSince++;
    } else t.background.add(text);
  }

  /** After each commit: moves the threshold and re-estimates the topic when due. */
  async afterCommit(fetchedTotal: number): Promise<void> {
    const store = this.#s.store;
    const policy = this.#s.threshold;
    const c = this.#s.coordination;
    const change = policy.step(Date.now(), fetchedTotal);
    if (change !== null) {
      this.#events.threshold(change);
      await store.setMeta(META_THRESHOLD, policy.history());
      await c.published('threshold');
    }
    const t = this.#topic;
    if (t === null || !c.isCoordinator() || t.keptSince < t.every) return;
    t.keptSince = 0;
    const background: CollectedTerms = t.background.snapshot();
    const { keywords, change: topicChange } = adaptTopic(
      t.original,
      t.current,
      t.relevant.snapshot(),
      { ...t.options, at: Date.now(), fetched: fetchedTotal, background },
    );
    t.current = keywords;
    this.model = createRelevanceModel(this.#modelName, { ...this.#s.topic, keywords });
    if (c.self !== undefined) topicChange.by = c.self;
    appendCapped(t.history.changes, topicChange);
    t.history.keywords = Object.fromEntries(keywords.map((k) => [k.word, k.weight]));
    this.#events.topic(topicChange);
    await store.setMeta(META_TOPIC_HISTORY, t.history);
    await c.published('topic');
  }

  /**
   * Sets the threshold by hand (the control channel, control.ts): the change (rule
   * `manual`) is told and recorded as the rules' changes are.
   */
  async setThreshold(value: number, fetchedTotal: number): Promise<void> {
    const policy = this.#s.threshold;
    const change = policy.set(value, 'manual', Date.now(), fetchedTotal);
    if (change === null) return;
    this.#events.threshold(change);
    const c = this.#s.coordination;
    if (!c.isCoordinator()) return;
    await this.#s.store.setMeta(META_THRESHOLD, policy.history());
    await c.published('threshold');
  }

  /**
   * Replaces the topic's keyword weights by hand (the control channel, control.ts): the
   * model in force here; and, by the coordinator, the store's keywords and the topic
   * history (a change with rule `manual`). A topic that adapts goes on from them.
   */
  async setWeights(keywords: TopicKeyword[], fetchedTotal: number): Promise<void> {
    const t = this.#topic;
    const before = t?.current ?? this.#manual ?? this.#s.topic.keywords;
    const change = manualTopicChange(this.#s.topic.keywords, before, keywords, fetchedTotal);
    this.model = createRelevanceModel(this.#modelName, { ...this.#s.topic, keywords });
    if (t !== null) t.current = keywords;
    else this.#manual = keywords;
    const c = this.#s.coordination;
    if (c.self !== undefined) change.by = c.self;
    this.#events.topic(change);
    if (!c.isCoordinator()) return;
    const store = this.#s.store;
    const history = t?.history ??
      (await store.getMeta<TopicHistory>(META_TOPIC_HISTORY)) ?? { changes: [], keywords: {} };
    appendCapped(history.changes, change);
    history.keywords = Object.fromEntries(keywords.map((k) => [k.word, k.weight]));
    await store.setKeywords(history.keywords);
    await store.setMeta(META_TOPIC_HISTORY, history);
    await c.published('topic');
  }

  /** Stores the threshold's state (at the end of a run): the coordinator's alone. */
  async save(): Promise<void> {
    if (!this.#s.coordination.isCoordinator()) return;
    await this.#s.store.setMeta(META_THRESHOLD, this.#s.threshold.history());
  }

  /** The term statistics collected since the last batch, for the coordinator. */
  take(batch: FeedBatch): void {
    const t = this.#topic;
    if (t === null || t.relevant.documents + t.background.documents === 0) return;
    batch.terms = {
      relevant: t.relevant.snapshot(),
      background: t.background.snapshot(),
      kept: t.keptSince,
    };
    const words = t.original.map((k) => k.word);
    t.relevant = createTermCollector({ keywords: words });
    t.background = createTermCollector({ keywords: words, sampleEvery: BACKGROUND_SAMPLE });
    t.keptSince = 0;
  }

  /** Another process's term statistics: counted as the coordinator's own pages are. */
  absorb(batch: FeedBatch): void {
    const t = this.#topic;
    if (t === null || batch.terms === undefined) return;
    t.relevant.merge(batch.terms.relevant);
    t.background.merge(batch.terms.background);
    t.keptSince += batch.terms.kept;
  }

  /** The topic vector the coordinator wrote. */
  async adopt(): Promise<void> {
    const t = this.#topic;
    const saved = await this.#s.store.getMeta<TopicHistory>(META_TOPIC_HISTORY);
    if (t === null || saved === undefined || typeof saved.keywords !== 'object') return;
    t.history = saved;
    t.current = Object.entries(saved.keywords).map(([word, weight]) => ({ word, weight }));
    this.model = createRelevanceModel(this.#modelName, { ...this.#s.topic, keywords: t.current });
  }
}
