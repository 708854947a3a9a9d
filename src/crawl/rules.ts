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
import type { ClaimedUrl, NewUrl } from '../store/index.js';
import { COPY_KEY_LEARN_AT, CopyKeys, type CopyKeysJson, copyKeys } from '../url/index.js';
import { Adaptation } from './adapt.js';
import { CrawlDedup } from './dedup.js';
import { type LinkOrderEvents, LinkOrdering } from './link-order.js';
import type { CrawlOptions } from './options.js';
import type { PageRules } from './page.js';
import { SeenUrls } from './seen.js';
import type { Setup } from './setup.js';
import { SiblingLinks } from './siblings.js';
import type { SiteFilter } from './site-filter.js';
import type { CrawlEvents } from './types.js';

/** Store meta key of the query keys learnt to change nothing (url/copy-keys.ts). */
export const META_COPY_KEYS = 'copyKeys';

/** The learnt keys kept in a store's meta, or none when absent or not of that shape. */
function storedCopyKeys(json: unknown): CopyKeysJson {
  const out: CopyKeysJson = {};
  if (json === null || typeof json !== 'object') return out;
  for (const [origin, keys] of Object.entries(json)) {
    if (Array.isArray(keys)) out[origin] = keys.filter((k): k is string => typeof k === 'string');
  }
  return out;
}

/**
 * Why a claimed URL is not fetched, or null: the site model came to refuse its pattern,
 * or it copies a URL by a key learnt to change nothing (it was queued before the key
 * was learnt). `queue`: the URL the copy stands for, when this run has not met it (a
 * resumed run), to be queued in its place.
 */
export function queuedRefusal(
  c: ClaimedUrl,
  filter: Pick<SiteFilter, 'refusesQueued'> | undefined,
  rules: Pick<PageRules, 'copyKeys' | 'seen'>,
): { reason: string; queue: NewUrl | null } | null {
  const pattern = filter?.refusesQueued(c.url);
  if (pattern != null) return { reason: `the site model refuses ${pattern}`, queue: null };
  const original = rules.copyKeys?.strip(c.url) ?? c.url;
  if (original === c.url) return null;
  const keys = (copyKeys(c.url, original) ?? []).join(', ');
  const reason = `a copy of ${original} (learnt to change nothing: ${keys})`;
  if (rules.seen.sent(original) !== undefined) return { reason, queue: null };
  rules.seen.addChecked(c.priority);
  const queue: NewUrl = {
    url: original,
    depth: c.depth,
    priority: c.priority,
    discoveredAt: Date.now(),
  };
  if (c.value !== 0) queue.value = c.value;
  return { reason, queue };
}

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
  /** Learnt keys already in the store's meta. */
  #copyKeysSaved = 0;

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
    if (this.#o.dedup && this.#o.learnCopyKeys) {
      const learnt = storedCopyKeys(await this.#s.store.getMeta(META_COPY_KEYS));
      this.rules.copyKeys = new CopyKeys(COPY_KEY_LEARN_AT, learnt);
      this.#copyKeysSaved = this.rules.copyKeys.size;
    }
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
      await this.#saveCopyKeys();
    });
  }

  /** Keys learnt since the last save go to the store's meta, with those others saved. */
  async #saveCopyKeys(): Promise<void> {
    const keys = this.rules.copyKeys;
    if (keys == null || keys.size === this.#copyKeysSaved) return;
    const merged = storedCopyKeys(await this.#s.store.getMeta(META_COPY_KEYS));
    for (const [origin, list] of Object.entries(keys.toJSON())) {
      merged[origin] = [...new Set([...(merged[origin] ?? []), ...list])].sort();
    }
    await this.#s.store.setMeta(META_COPY_KEYS, merged);
    this.#copyKeysSaved = keys.size;
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
    await this.#saveCopyKeys();
  }
}
