/**
 * Online learning of the link model (`learnEvery`): each judged page whose URL came
 * with a link context (the store keeps it, `NewUrl.context`) is an example, positive
 * when the page was kept. Every `every` judged pages, once both classes have
 * `MIN_EXAMPLES_PER_CLASS`, the model is retrained on the examples so far (the most
 * recent `MAX_EXAMPLES_PER_CLASS` of each class) and replaces the one in force. The
 * model in force is first scored on the examples that arrived since it was trained
 * (they are new to it), and that score is recorded with the new snapshot.
 *
 * Snapshots go to the store's meta: the latest model (`META_LINK_MODEL`, a model file's
 * JSON) and the history of every retraining (`META_LINK_LEARNING`). A resumed crawl
 * goes on from the latest model; the example pool starts afresh.
 */
import {
  evaluateLinkModel,
  type LinkModel,
  type LinkModelJson,
  type LinkModelOptions,
  linkTermCounts,
  parseLinkModel,
  type TermCounts,
  type TrainingMetrics,
  trainLinkModel,
} from '../relevance/index.js';
import type { ClaimedUrl, Store } from '../store/index.js';

export const META_LINK_MODEL = 'linkModel';
export const META_LINK_LEARNING = 'linkLearning';
/** Examples of each class kept for retraining (the most recent). */
export const MAX_EXAMPLES_PER_CLASS = 5000;
/** Examples of each class needed before the first retraining. */
export const MIN_EXAMPLES_PER_CLASS = 20;
/** Snapshots listed in the history at most (the oldest are dropped). */
const MAX_HISTORY = 500;

/** One retraining. */
export interface LinkModelSnapshot {
  at: number;
  /** Fetch outcomes in the store when it was made. */
  fetched: number;
  positive: number;
  negative: number;
  terms: number;
  trainMs: number;
  /** The previous model's scores on the examples seen since it was trained; null for the first. */
  metrics: TrainingMetrics | null;
  /** The process that retrained, `host:pid`, on a store several processes crawl. */
  by?: string;
}

export interface LinkLearningHistory {
  snapshots: LinkModelSnapshot[];
}

/** A bounded queue keeping the most recent items. */
class Recent<T> {
  readonly #max: number;
  #items: T[] = [];
  constructor(max: number) {
    this.#max = max;
  }
  push(x: T): void {
    this.#items.push(x);
    if (this.#items.length > 2 * this.#max) this.#items = this.#items.slice(-this.#max);
  }
  get items(): T[] {
    if (this.#items.length > this.#max) this.#items = this.#items.slice(-this.#max);
    return this.#items;
  }
  get size(): number {
    return Math.min(this.#items.length, this.#max);
  }
  clear(): void {
    this.#items = [];
  }
}

/** An example's counts: the stored context (anchor, surrounding words, title) and the URL. */
export function exampleCounts(url: string, context: string): TermCounts {
  return linkTermCounts({ url, anchor: '', context, title: '' });
}

export class OnlineLearner {
  readonly every: number;
  readonly #options: LinkModelOptions;
  readonly #pos = new Recent<TermCounts>(MAX_EXAMPLES_PER_CLASS);
  readonly #neg = new Recent<TermCounts>(MAX_EXAMPLES_PER_CLASS);
  readonly #newPos = new Recent<TermCounts>(MAX_EXAMPLES_PER_CLASS);
  readonly #newNeg = new Recent<TermCounts>(MAX_EXAMPLES_PER_CLASS);
  #since = 0;
  history: LinkLearningHistory;
  model: LinkModel | null;
  /** Written into each snapshot (`LinkModelSnapshot.by`). */
  by: string | undefined;

  constructor(
    every: number,
    options: LinkModelOptions,
    initial: LinkModel | null,
    history: LinkLearningHistory = { snapshots: [] },
  ) {
    this.every = every;
    this.#options = options;
    this.model = initial;
    this.history = history;
  }

  /** A learner that goes on from the store's latest snapshot, if it has one. */
  static async resume(
    store: Store,
    every: number,
    options: LinkModelOptions,
    initial: LinkModel | null,
  ): Promise<OnlineLearner> {
    const json = await store.getMeta<LinkModelJson>(META_LINK_MODEL);
    const history = await store.getMeta<LinkLearningHistory>(META_LINK_LEARNING);
    const model =
      json === undefined ? initial : parseLinkModel(json, `store meta ${META_LINK_MODEL}`);
    return new OnlineLearner(every, options, model, history ?? { snapshots: [] });
  }

  /** A judged page: an example when its URL came with a context. */
  observe(claimed: ClaimedUrl, kept: boolean): void {
    this.record(claimed.url, claimed.context, kept);
  }

  /** A judged page by its URL and link context (null: none), here or in another process. */
  record(url: string, context: string | null, kept: boolean): void {
    this.#since++;
    if (context === null) return;
    const counts = exampleCounts(url, context);
    (kept ? this.#pos : this.#neg).push(counts);
    (kept ? this.#newPos : this.#newNeg).push(counts);
  }

  /** Examples held, by class. */
  get examples(): { positive: number; negative: number } {
    return { positive: this.#pos.size, negative: this.#neg.size };
  }

  /** Whether a retraining is due. */
  get due(): boolean {
    return (
      this.#since >= this.every &&
      this.#pos.size >= MIN_EXAMPLES_PER_CLASS &&
      this.#neg.size >= MIN_EXAMPLES_PER_CLASS
    );
  }

  /** Retrains now; the new model is in force when it returns. */
  retrain(fetched: number, now = Date.now()): LinkModelSnapshot {
    const previous = this.model;
    const metrics =
      previous !== null && this.#newPos.size + this.#newNeg.size > 0
        ? evaluateLinkModel(previous, this.#newPos.items, this.#newNeg.items)
        : null;
    const t0 = performance.now();
    const model = trainLinkModel(
      this.#pos.items,
      this.#neg.items,
      this.#options,
      new Date(now),
    ).withMetrics(metrics);
    const trainMs = performance.now() - t0;
    this.model = model;
    this.#since = 0;
    this.#newPos.clear();
    this.#newNeg.clear();
    const snapshot: LinkModelSnapshot = {
      at: now,
      fetched,
      positive: this.#pos.size,
      negative: this.#neg.size,
      terms: model.vocabularySize,
      trainMs: Math.round(trainMs * 10) / 10,
      metrics,
    };
    if (this.by !== undefined) snapshot.by = this.by;
    this.history.snapshots.push(snapshot);
    if (this.history.snapshots.length > MAX_HISTORY) this.history.snapshots.shift();
    return snapshot;
  }

  /** Writes the model in force and the history to the store's meta. */
  async save(store: Store): Promise<void> {
    if (this.model !== null) await store.setMeta(META_LINK_MODEL, this.model.json);
    await store.setMeta(META_LINK_LEARNING, this.history);
  }
}
