/**
 * How links are ordered beyond a text model (docs/bayes.md): the naive Bayes link model
 * (from a file, retrained online with `learnEvery`) or PageRank among the discovered
 * pages (strategy `pagerank`, recomputed every `rankBufferPages` fetched pages). It
 * gives the page rules their link scorer, sees every judged page, retrains or
 * recomputes after commits when due, and then re-scores the waiting URLs in the
 * background (rescore.ts) when the strategy's priority is the link score.
 *
 * On a store several processes crawl (coordination.ts), retraining, recomputing and
 * re-scoring the shared frontier are the coordinator's: the others send it their
 * judged pages (examples, links), take each model it retrains from the store, and
 * score their new links with it (PageRank: by the one-step estimate from their own
 * pages' links, until the coordinator's next pass re-scores the frontier).
 */

import { DEFAULT_STRATEGY_OPTIONS } from '../frontier/index.js';
import { BufferedPageRank } from '../ranking/index.js';
import {
  type LinkModel,
  type LinkModelJson,
  type LinkModelOptions,
  type LinkSight,
  linkTermCounts,
  parseLinkModel,
} from '../relevance/index.js';
import type { ClaimedUrl, Store, WaitingUrl } from '../store/index.js';
import type { Coordination, SharedJob } from './coordination.js';
import type { FeedBatch } from './feed.js';
import {
  exampleCounts,
  type LinkLearningHistory,
  type LinkModelSnapshot,
  META_LINK_LEARNING,
  META_LINK_MODEL,
  OnlineLearner,
} from './learner.js';
import type { CrawlOptions } from './options.js';
import { FrontierRescorer } from './rescore.js';
import type { Setup } from './setup.js';

export interface LinkOrderEvents {
  linkModel(snapshot: LinkModelSnapshot): void;
}

type Scorer = (link: LinkSight, parentUrl: string) => number;

/** The file model's training settings, for retraining the same kind of model online. */
function trainingOptionsOf(file: LinkModel | null, contextChars: number): LinkModelOptions {
  if (file === null) return { contextChars };
  const j = file.json;
  return {
    density: j.classifier.density,
    bandwidth: j.classifier.bandwidth,
    maxTerms: j.training.maxTerms,
    minDocs: j.training.minDocs,
    contextChars,
  };
}

/** Group the store's links by page (they are recorded page by page). */
async function rebuildGraph(store: Store, rank: BufferedPageRank): Promise<void> {
  let from: string | null = null;
  let to: string[] = [];
  for await (const l of store.links()) {
    if (l.from !== from) {
      if (from !== null) rank.addPage(from, to);
      from = l.from;
      to = [];
    }
    to.push(l.to);
  }
  if (from !== null) rank.addPage(from, to);
}

export class LinkOrdering implements SharedJob {
  readonly name = 'linkModel';
  readonly #store: Store;
  readonly #c: Coordination;
  /** Judged pages not sent to the coordinator yet (while not the coordinator). */
  #examples: NonNullable<FeedBatch['examples']> = [];
  #links: NonNullable<FeedBatch['links']> = [];
  readonly #events: LinkOrderEvents;
  readonly #learner: OnlineLearner | null;
  readonly #rank: BufferedPageRank | null;
  readonly #rescorer: FrontierRescorer | null;
  #model: LinkModel | null;
  /** Priorities are log odds (strategy `bayes`), else probabilities. */
  readonly #logOdds: boolean;

  private constructor(
    store: Store,
    c: Coordination,
    events: LinkOrderEvents,
    parts: {
      learner: OnlineLearner | null;
      rank: BufferedPageRank | null;
      model: LinkModel | null;
      rescores: boolean;
      logOdds: boolean;
    },
  ) {
    this.#logOdds = parts.logOdds;
    this.#store = store;
    this.#c = c;
    this.#events = events;
    this.#learner = parts.learner;
    this.#rank = parts.rank;
    this.#model = parts.model;
    const score = this.#rescoreFn();
    this.#rescorer = parts.rescores && score !== null ? new FrontierRescorer(store, score) : null;
    if (this.observes) c.join(this);
  }

  static async create(
    o: CrawlOptions,
    s: Setup,
    rescores: boolean,
    events: LinkOrderEvents,
  ): Promise<LinkOrdering> {
    const m = s.models;
    let rank: BufferedPageRank | null = null;
    if (m.strategy === 'pagerank') {
      rank = new BufferedPageRank({
        bufferPages: o.strategyOptions.rankBufferPages ?? DEFAULT_STRATEGY_OPTIONS.rankBufferPages,
        damping: o.strategyOptions.damping ?? DEFAULT_STRATEGY_OPTIONS.damping,
      });
      // The graph is the coordinator's to rank; the others estimate from their own pages.
      if (s.resumed && s.coordination.isCoordinator()) {
        await rebuildGraph(s.store, rank);
        rank.recompute();
      }
    }
    let learner: OnlineLearner | null = null;
    if (m.link === 'bayes' && o.learnEvery !== undefined) {
      learner = await OnlineLearner.resume(
        s.store,
        o.learnEvery,
        trainingOptionsOf(m.file, m.contextChars),
        m.file,
      );
      learner.by = s.coordination.self;
    }
    const model = m.link === 'bayes' ? (learner?.model ?? m.file) : null;
    return new LinkOrdering(s.store, s.coordination, events, {
      learner,
      rank,
      model,
      rescores,
      logOdds: m.strategy === 'bayes',
    });
  }

  /** Whether new URLs keep their link context (online learning reads it back). */
  get keepsContext(): boolean {
    return this.#learner !== null;
  }

  /** The link scorer in force (undefined: the text model scores links). */
  get linkScore(): Scorer | undefined {
    const rank = this.#rank;
    if (rank !== null) return (link, parentUrl) => rank.estimate(link.url, parentUrl);
    const model = this.#model;
    if (model === null) return undefined;
    // Under `bayes` the priority is the log odds (ordered as Pr(+), never rounding to 0
    // or 1); strategies that mix the score with other terms get Pr(+) itself.
    if (this.#logOdds) return (link) => model.logOdds(linkTermCounts(link));
    return (link) => model.probability(linkTermCounts(link));
  }

  /** New priorities of waiting URLs after a retraining or recomputation; null: none. */
  #rescoreFn(): ((w: WaitingUrl) => number | null) | null {
    if (this.#rank !== null) {
      const rank = this.#rank;
      return (w) => (w.depth === 0 ? null : (rank.rank(w.url) ?? null));
    }
    if (this.#learner === null) return null;
    return (w) => {
      const model = this.#model;
      const context = w.context ?? w.anchor;
      if (model === null || w.depth === 0 || context === null) return null;
      const counts = exampleCounts(w.url, context);
      return this.#logOdds ? model.logOdds(counts) : model.probability(counts);
    };
  }

  /** Whether judged pages are of use (online learning, PageRank). */
  get observes(): boolean {
    return this.#learner !== null || this.#rank !== null;
  }

  /** A judged page (page.ts `observe`). */
  observe(claimed: ClaimedUrl, kept: boolean, links: readonly { url: string }[] | null): void {
    const coordinator = this.#c.isCoordinator();
    if (this.#learner !== null) {
      if (coordinator) this.#learner.observe(claimed, kept);
      else this.#examples.push([claimed.url, claimed.context, kept]);
    }
    if (links !== null && this.#rank !== null) {
      const to = links.map((l) => l.url);
      this.#rank.addPage(claimed.url, to);
      if (!coordinator) this.#links.push([claimed.url, to]);
    }
  }

  take(batch: FeedBatch): void {
    if (this.#examples.length > 0) batch.examples = this.#examples;
    if (this.#links.length > 0) batch.links = this.#links;
    this.#examples = [];
    this.#links = [];
  }

  absorb(batch: FeedBatch): void {
    if (this.#learner !== null) {
      for (const [url, context, kept] of batch.examples ?? [])
        this.#learner.record(url, context, kept);
    }
    if (this.#rank !== null) for (const [url, to] of batch.links ?? []) this.#rank.addPage(url, to);
  }

  /** The model the coordinator retrained last, and its history. */
  async adopt(): Promise<void> {
    const learner = this.#learner;
    if (learner === null) return;
    const json = await this.#store.getMeta<LinkModelJson>(META_LINK_MODEL);
    if (json === undefined) return;
    learner.model = parseLinkModel(json, `store meta ${META_LINK_MODEL}`);
    this.#model = learner.model;
    learner.history = (await this.#store.getMeta<LinkLearningHistory>(META_LINK_LEARNING)) ?? {
      snapshots: [],
    };
  }

  /** PageRank ranks the whole store's graph from now on: read it, rank it, re-score. */
  async takeOver(): Promise<void> {
    if (this.#rank === null) return;
    await rebuildGraph(this.#store, this.#rank);
    this.#rank.recompute();
    this.#rescorer?.request();
  }

  /** After a commit: retrains or recomputes when due, then re-scores the frontier. */
  async afterCommit(fetched: number): Promise<void> {
    if (!this.#c.isCoordinator()) return;
    const learner = this.#learner;
    if (learner?.due) {
      const snapshot = learner.retrain(fetched);
      this.#model = learner.model;
      await learner.save(this.#store);
      await this.#c.published(this.name);
      this.#events.linkModel(snapshot);
      this.#rescorer?.request();
    }
    if (this.#rank?.due()) {
      this.#rank.recompute();
      this.#rescorer?.request();
    }
  }

  /** Figures of the background re-scoring. */
  get rescoring(): { passes: number; rescored: number; scoringMs: number } | null {
    const r = this.#rescorer;
    return r === null ? null : { passes: r.passes, rescored: r.rescored, scoringMs: r.scoringMs };
  }

  /** Stops re-scoring and saves the learner's state. */
  async close(): Promise<void> {
    await this.#rescorer?.stop();
    if (this.#learner !== null && this.#c.isCoordinator()) await this.#learner.save(this.#store);
  }
}
