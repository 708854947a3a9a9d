/**
 * The control channel: pause, resume and stop a crawl, set its threshold or its topic's
 * keyword weights, while it runs, through the store. `focuscrawl serve` (src/serve)
 * writes the meta value `control` (read-modify-write, `seq` raised each time); every
 * run on the store polls it (`ControlWatch`, every 500 ms) and applies what changed, so
 * that it reaches a crawl in another process, on its own thread, or on many machines
 * sharing a PostgreSQL store alike.
 *
 * - `paused`: no new request starts (fetches under way finish); `paused: false` resumes.
 * - `stop`: the run stops as `run.stop()` does (summary reason `stopped`). A stop is for
 *   the runs going when it was asked: a run that starts later clears it.
 * - `threshold` / `weights`: applied once per `seq` (a change older than the run is not
 *   applied again), recorded in the threshold or topic history with rule `manual`.
 *
 * A run on a store no other process crawls also clears a pause left by an earlier run
 * (a new `crawl` means crawling); a process joining a shared crawl that is paused waits
 * with the others.
 */
import { z } from 'zod';
import { type TopicChange, type TopicKeyword, weightCosine } from '../relevance/index.js';
import type { RunRecords } from '../store/index.js';
import type { RuleKeeper } from './rules.js';
import type { Setup } from './setup.js';

/** Meta key of the `Control` value. */
export const META_CONTROL = 'control';
/** How often a run reads the control value. */
export const CONTROL_POLL_MS = 500;

/** What the control channel asks of the runs on a store (meta `control`). */
export interface Control {
  v: 1;
  /** No new request starts while true. */
  paused: boolean;
  /** The runs going stop (reason `stopped`). */
  stop: boolean;
  /** Raised by every write. */
  seq: number;
  /** When it was last written (ms since the epoch). */
  at: number;
  /** A threshold to set, applied once per `seq`. */
  threshold?: { value: number; seq: number };
  /** Keyword weights that replace the topic's, applied once per `seq`. */
  weights?: { terms: Record<string, number>; seq: number };
}

const seqSchema = z.number().int().min(0);
const controlSchema = z.object({
  paused: z.boolean().catch(false),
  stop: z.boolean().catch(false),
  seq: seqSchema.catch(0),
  at: z.number().catch(0),
  threshold: z
    .object({ value: z.number().min(0).max(1), seq: seqSchema })
    .optional()
    .catch(undefined),
  weights: z
    .object({ terms: z.record(z.string().min(1), z.number().positive()), seq: seqSchema })
    .optional()
    .catch(undefined),
});

/** The control value of a store with none (or with one this version cannot read). */
export function emptyControl(): Control {
  return { v: 1, paused: false, stop: false, seq: 0, at: 0 };
}

/** The store's control value; a missing or malformed one reads as `emptyControl()`. */
export async function readControl(store: Pick<RunRecords, 'getMeta'>): Promise<Control> {
  const raw = await store.getMeta(META_CONTROL);
  const r = controlSchema.safeParse(raw);
  if (!r.success) return emptyControl();
  const c: Control = {
    v: 1,
    paused: r.data.paused,
    stop: r.data.stop,
    seq: r.data.seq,
    at: r.data.at,
  };
  if (r.data.threshold !== undefined) c.threshold = r.data.threshold;
  if (r.data.weights !== undefined) c.weights = r.data.weights;
  return c;
}

/** Writes of this process, one at a time per store (a read-modify-write each). */
const writing = new WeakMap<object, Promise<unknown>>();

/**
 * Changes the store's control value: reads it, lets `change` edit it, raises `seq`,
 * stamps `at` and writes it; resolves to what was written. Writes of one process are
 * serialised; two processes writing at the same moment may lose one write (the last
 * one wins), which the control's users (one `serve`, and runs clearing a stale stop)
 * do not do.
 */
export function updateControl(
  store: Pick<RunRecords, 'getMeta' | 'setMeta'>,
  change: (c: Control) => void,
  now: () => number = Date.now,
): Promise<Control> {
  const run = async () => {
    const c = await readControl(store);
    change(c);
    c.seq += 1;
    c.at = now();
    await store.setMeta(META_CONTROL, c);
    return c;
  };
  const before = writing.get(store) ?? Promise.resolve();
  const next = before.then(run, run);
  writing.set(
    store,
    next.catch(() => {}),
  );
  return next;
}

/** What a run does with the control's changes (the crawl engine's hooks). */
export interface ControlHandlers {
  /** `paused` changed: the crawl loop looks again. */
  wake(): void;
  stop(): void;
  threshold(value: number): Promise<void>;
  weights(keywords: TopicKeyword[]): Promise<void>;
  warn(message: string): void;
}

export interface ControlWatchOptions {
  /** Other processes crawl the store too (a PostgreSQL store). */
  shared: boolean;
  /** @default CONTROL_POLL_MS */
  pollMs?: number;
}

/** A run's view of the control value: polled every `pollMs`, each change applied once. */
export class ControlWatch {
  readonly #store: Pick<RunRecords, 'getMeta' | 'setMeta'>;
  readonly #h: ControlHandlers;
  #paused = false;
  #stopped = false;
  #thresholdSeq: number;
  #weightsSeq: number;
  #timer: NodeJS.Timeout | null = null;
  #polling: Promise<void> | null = null;
  #failing = false;
  #closed = false;

  private constructor(
    store: Pick<RunRecords, 'getMeta' | 'setMeta'>,
    h: ControlHandlers,
    c: Control,
  ) {
    this.#store = store;
    this.#h = h;
    // Changes asked before the run began are not applied again.
    this.#thresholdSeq = c.threshold?.seq ?? 0;
    this.#weightsSeq = c.weights?.seq ?? 0;
  }

  /** Reads the control value as the run begins (clearing what is stale) and starts polling. */
  static async start(
    store: Pick<RunRecords, 'getMeta' | 'setMeta'>,
    handlers: ControlHandlers,
    options: ControlWatchOptions,
  ): Promise<ControlWatch> {
    let c = await readControl(store);
    const clearPause = c.paused && !options.shared;
    if (c.stop || clearPause) {
      c = await updateControl(store, (x) => {
        x.stop = false;
        if (!options.shared) x.paused = false;
      });
    }
    const w = new ControlWatch(store, handlers, c);
    if (c.paused) {
      w.#paused = true;
      handlers.warn(
        'the crawl is paused (control channel): no request starts until it is resumed (POST /api/control/resume of focuscrawl serve)',
      );
    }
    const pollMs = options.pollMs ?? CONTROL_POLL_MS;
    w.#timer = setInterval(() => void w.poll(), pollMs);
    w.#timer.unref();
    return w;
  }

  /**
   * The watch of a crawl run: a threshold or weights set by hand go to the page rules
   * (rules.ts, adapt.ts) in turn with the jobs that move them.
   */
  static forRun(
    s: Pick<Setup, 'store' | 'coordination'>,
    keeper: Pick<RuleKeeper, 'manual'>,
    fetchedTotal: () => number,
    h: Pick<ControlHandlers, 'wake' | 'stop' | 'warn'>,
  ): Promise<ControlWatch> {
    return ControlWatch.start(
      s.store,
      {
        ...h,
        threshold: (v) => keeper.manual((a) => a.setThreshold(v, fetchedTotal())),
        weights: (k) => keeper.manual((a) => a.setWeights(k, fetchedTotal())),
      },
      { shared: s.coordination.shared },
    );
  }

  /** True while no new request may start. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Reads the control value once and applies what changed (the timer's job; tests call it). */
  poll(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#polling ??= this.#poll().finally(() => {
      this.#polling = null;
    });
    return this.#polling;
  }

  async #poll(): Promise<void> {
    let c: Control;
    try {
      c = await readControl(this.#store);
      this.#failing = false;
    } catch (e) {
      // Said once per spell of failures (a store busy or going away); polling goes on.
      if (!this.#failing && !this.#closed) this.#h.warn(`control: ${messageOf(e)}`);
      this.#failing = true;
      return;
    }
    if (this.#closed) return;
    if (c.stop && !this.#stopped) {
      this.#stopped = true;
      this.#h.warn('stop asked through the control channel: stopping');
      this.#h.stop();
    }
    if (c.paused !== this.#paused) {
      this.#paused = c.paused;
      this.#h.warn(
        c.paused
          ? 'paused through the control channel: no new request starts until resumed'
          : 'resumed through the control channel',
      );
      this.#h.wake();
    }
    if (c.threshold !== undefined && c.threshold.seq > this.#thresholdSeq) {
      this.#thresholdSeq = c.threshold.seq;
      await this.#apply('threshold', () => this.#h.threshold(c.threshold?.value as number));
    }
    if (c.weights !== undefined && c.weights.seq > this.#weightsSeq) {
      this.#weightsSeq = c.weights.seq;
      const keywords = Object.entries(c.weights.terms).map(([word, weight]) => ({ word, weight }));
      await this.#apply('weights', () => this.#h.weights(keywords));
    }
  }

  async #apply(what: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.#h.warn(`control: the ${what} could not be set: ${messageOf(e)}`);
    }
  }

  /** Stops polling; a poll under way finishes. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#polling;
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The topic history's record of keyword weights set by hand: the drift from the
 * original vector, the words added and removed, the heaviest 20, rule `manual`.
 */
export function manualTopicChange(
  original: readonly TopicKeyword[],
  before: readonly TopicKeyword[],
  after: readonly TopicKeyword[],
  fetched: number,
  at: number = Date.now(),
): TopicChange {
  const vec = (k: readonly TopicKeyword[]) => new Map(k.map((x) => [x.word, x.weight]));
  const old = vec(before);
  const now = vec(after);
  const top = [...after]
    .sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
    .slice(0, 20)
    .map((k): [string, number] => [k.word, k.weight]);
  return {
    at,
    fetched,
    drift: Math.max(0, 1 - weightCosine(vec(original), now)),
    limited: false,
    added: after.filter((k) => !old.has(k.word)).map((k) => k.word),
    removed: before.filter((k) => !now.has(k.word)).map((k) => k.word),
    top,
    rule: 'manual',
  };
}
