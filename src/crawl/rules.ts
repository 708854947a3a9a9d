/**
 * The page rules of a crawl and what keeps them current: the threshold, the topic
 * vector (adapt.ts) and the link ordering (link-order.ts) change after commits, and
 * the rules page.ts reads are brought up to date here, so that the engine only calls
 * `start`, `afterCommit` and `close`. On a store several processes crawl, the jobs
 * exchange with the coordinator first (coordination.ts), after each commit and on the
 * coordination's poll, one at a time.
 */
import type { LinkStrategy } from '../frontier/index.js';
import { createRelevanceModel, linkModelPageJudge } from '../relevance/index.js';
import { Adaptation } from './adapt.js';
import { CrawlDedup } from './dedup.js';
import { type LinkOrderEvents, LinkOrdering } from './link-order.js';
import type { CrawlOptions } from './options.js';
import type { PageRules } from './page.js';
import { SeenUrls } from './seen.js';
import type { Setup } from './setup.js';
import { SiblingLinks } from './siblings.js';
import type { CrawlEvents } from './types.js';

type Emit = <K extends keyof CrawlEvents>(name: K, ...args: CrawlEvents[K]) => void;

export class RuleKeeper {
  readonly rules: PageRules;
  readonly #o: CrawlOptions;
  readonly #s: Setup;
  #adaptation: Adaptation | null = null;
  #ordering: LinkOrdering | null = null;
  /** The jobs' runs, one at a time (after commits, and on the coordination's poll). */
  #turn: Promise<void> = Promise.resolve();
  #fetchedTotal = 0;

  constructor(
    o: CrawlOptions,
    s: Setup,
    strategy: LinkStrategy,
    inScope: (url: string) => boolean,
  ) {
    this.#o = o;
    this.#s = s;
    this.#fetchedTotal = s.fetchedTotal;
    const m = s.models;
    const keywordModel = createRelevanceModel(m.keyword, s.topic);
    const seen = new SeenUrls();
    this.rules = {
      model: m.page === 'bayes' && m.file !== null ? linkModelPageJudge(m.file) : keywordModel,
      linkText: keywordModel,
      keepContext: false,
      parse: { contextChars: m.contextChars },
      threshold: s.threshold.value,
      strategy,
      inScope,
      maxDepth: o.maxDepth ?? Number.POSITIVE_INFINITY,
      storeBodies: o.storeBodies,
      fullText: o.fullText === 'kept',
      extract: s.extract ?? null,
      dedup: null,
      seen,
      siblings: strategy.siblings ? new SiblingLinks(strategy.siblings, seen) : null,
    };
  }

  /** Reads what a resumed crawl adapted or learned, and hooks it into the rules. */
  async start(emit: Emit): Promise<void> {
    if (this.#o.dedup)
      this.rules.dedup = await CrawlDedup.create(this.#s.store, this.#o.dedupMaxDistance);
    const adaptation = await Adaptation.create(this.#o, this.#s, this.#s.models.keyword, {
      threshold: (c) => emit('threshold', c),
      topic: (c) => emit('topic', c),
    });
    this.#adaptation = adaptation;
    const events: LinkOrderEvents = { linkModel: (snapshot) => emit('linkModel', snapshot) };
    const rescores = this.rules.strategy.rescores === true;
    const ordering = await LinkOrdering.create(this.#o, this.#s, rescores, events);
    this.#ordering = ordering;
    this.rules.keepContext = ordering.keepsContext;
    if (ordering.observes)
      this.rules.observe = (c, kept, links) => ordering.observe(c, kept, links);
    if (adaptation.collects) this.rules.collect = (text, kept) => adaptation.collect(text, kept);
    this.#refresh();
    this.#s.coordination.attach({
      poll: () => {
        this.#jobs(this.#fetchedTotal).catch((e: unknown) =>
          emit('warning', `coordination: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
      warning: (m) => emit('warning', m),
    });
  }

  /** After each commit: the threshold, topic and link ordering move when due. */
  afterCommit(fetchedTotal: number): Promise<void> {
    this.#fetchedTotal = fetchedTotal;
    return this.#jobs(fetchedTotal);
  }

  #jobs(fetchedTotal: number): Promise<void> {
    return this.#inTurn(async () => {
      await this.#s.coordination.exchange();
      await this.#adaptation?.afterCommit(fetchedTotal);
      await this.#ordering?.afterCommit(fetchedTotal);
    });
  }

  /** A threshold or keyword weights set by hand (control.ts), in turn with the jobs. */
  manual(change: (a: Adaptation) => Promise<void>): Promise<void> {
    return this.#inTurn(async () => {
      if (this.#adaptation !== null) await change(this.#adaptation);
    });
  }

  #inTurn(job: () => Promise<void>): Promise<void> {
    const run = async () => {
      await job();
      this.#refresh();
    };
    const next = this.#turn.then(run, run);
    this.#turn = next.catch(() => {});
    return next;
  }

  /**
   * The threshold in force; the adapted keyword model scores link text, and judges
   * pages unless the link model does; the link scorer of the ordering.
   */
  #refresh(): void {
    this.rules.threshold = this.#s.threshold.value;
    const a = this.#adaptation;
    if (a !== null) {
      this.rules.linkText = a.model;
      if (this.#s.models.page !== 'bayes') this.rules.model = a.model;
    }
    if (this.#ordering !== null) this.rules.linkScore = this.#ordering.linkScore;
  }

  /** Stops background re-scoring and saves what adapted and learned. */
  async close(): Promise<void> {
    const c = this.#s.coordination;
    c.attach(null);
    await this.#turn;
    // What this process judged last reaches the coordinator (or, in it, is counted).
    await c.exchange(true);
    await this.#ordering?.close();
    await this.#adaptation?.save();
  }
}
