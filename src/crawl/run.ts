/**
 * `crawl(options)`: starts a crawl and returns a `CrawlRun`, an event emitter that
 * is also a promise of the summary:
 *
 * ```ts
 * const run = crawl({ store: 'crawls/grid', topic: 'grid.json', seeds: ['https://example.org/'] });
 * run.on('page', (p) => console.log(p.state, p.url));
 * process.once('SIGINT', () => run.stop());
 * const summary = await run;
 * ```
 */
import { EventEmitter } from 'node:events';
import { CrawlThreadError } from '../errors/index.js';
import type { Engine } from './engine.js';
import { type CrawlOptions, type CrawlOptionsInput, parseCrawlOptions } from './options.js';
import { CrawlThread, wantsThread } from './thread.js';
import type { CrawlEvents, CrawlSummary, StopReason } from './types.js';

/**
 * Options `parseCrawlOptions` returned on the thread that started the crawl and sent to
 * the crawl's own thread (`runValidated`): run there as they are, not parsed again.
 */
const validated = new WeakSet<object>();

export class CrawlRun extends EventEmitter<CrawlEvents> implements PromiseLike<CrawlSummary> {
  readonly #done: Promise<CrawlSummary>;
  #engine: Engine | null = null;
  #thread: CrawlThread | null = null;
  #stopRequested: StopReason | null = null;

  /** Use `crawl(options)`. */
  constructor(input: CrawlOptionsInput) {
    super();
    this.#done = this.#run(input);
    // The promise is the way to see failures; do not report them twice as unhandled.
    this.#done.catch(() => {});
  }

  async #run(input: CrawlOptionsInput): Promise<CrawlSummary> {
    // Let the caller attach listeners before the first event.
    await Promise.resolve();
    // The options are parsed once, here; a crawl's own thread gets them parsed.
    const here = validated.has(input);
    const o = here ? (input as CrawlOptions) : parseCrawlOptions(input);
    const emit = this.emit.bind(this) as (name: string, ...args: unknown[]) => boolean;
    if (!here && wantsThread(o)) {
      const t = new CrawlThread(o, (name, ...args) => {
        emit(name, ...args);
      });
      this.#thread = t;
      if (this.#stopRequested !== null) t.stop();
      const dir = o.store;
      if (typeof dir !== 'string') return t.done;
      return t.done.catch(async (e: unknown) => {
        // A thread that died could not give the store's lock back: this thread does.
        if (e instanceof CrawlThreadError) {
          const { releaseOwnRunLock } = await import('../store/run-lock.js');
          releaseOwnRunLock(dir);
        }
        throw e;
      });
    }
    // Loaded here: a crawl on its own thread leaves this thread with the light modules.
    const [{ Engine }, { setUp }] = await Promise.all([
      import('./engine.js'),
      import('./setup.js'),
    ]);
    const s = await setUp(o);
    try {
      const engine = new Engine(o, s, (name, ...args) => {
        emit(name, ...args);
      });
      this.#engine = engine;
      if (this.#stopRequested !== null) engine.stop(this.#stopRequested);
      const summary = await engine.run();
      // Ranking the whole store is one job, not one per process: the coordinator's.
      if (o.rankOnFinish && (await s.coordination.claim())) {
        const [{ rankStore }, { finishRankOptions }] = await Promise.all([
          import('../ranking/index.js'),
          import('./rank-settings.js'),
        ]);
        // The settings `focuscrawl rank` kept in the store, else the crawl's damping.
        const settings = await finishRankOptions(s.store, o.strategyOptions.damping);
        emit('ranked', await rankStore(s.store, settings));
      }
      return summary;
    } finally {
      try {
        if (s.ownsStore) await s.store.close();
      } finally {
        s.unlock();
      }
    }
  }

  /**
   * Stops gracefully: no new fetch starts, fetches in flight are abandoned and their
   * URLs return to waiting, everything fetched is committed. Resolves with the summary.
   */
  stop(): Promise<CrawlSummary> {
    this.#stopRequested = 'stopped';
    this.#engine?.stop('stopped');
    this.#thread?.stop();
    return this.#done;
  }

  /** The summary, as a plain promise. */
  get done(): Promise<CrawlSummary> {
    return this.#done;
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting a run gives its summary, by design
  then<A = CrawlSummary, B = never>(
    onFulfilled?: ((value: CrawlSummary) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#done.then(onFulfilled, onRejected);
  }
}

/** Starts a focused crawl; see `CrawlOptionsInput` for the options and `CrawlEvents` for events. */
export function crawl(options: CrawlOptionsInput): CrawlRun {
  return new CrawlRun(options);
}

/**
 * `crawl` on the calling thread of options validated already by `parseCrawlOptions`
 * (the crawl's own thread runs this with what the starting thread parsed).
 */
export function runValidated(options: CrawlOptions): CrawlRun {
  validated.add(options);
  return new CrawlRun(options);
}
