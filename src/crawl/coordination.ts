/**
 * The coordinator (docs/scale-out.md, "The coordinator"). Several processes crawling
 * one PostgreSQL store share the jobs whose result is the crawl's, not a process's:
 * the threshold and topic adaptation, online learning, buffered PageRank, site-model
 * relearning, the ranking at the end. One process at a time, the coordinator, runs
 * them and writes their results to the store's meta; the others send it what they
 * judge (feed.ts) and take its results from the store.
 *
 * The role is a PostgreSQL advisory lock (store/pg-coordinator.ts): a process that does
 * not hold it tries again every COORDINATION_POLL_MS, so when the coordinator dies
 * another takes over within that time. The role a process acts in changes only in
 * `exchange`, which the crawl calls after its commits (and on the poll, when it commits
 * nothing), so that a job never sees its role change while it runs.
 *
 * The jobs join with a `SharedJob`: what they send (`take`), what they do with what
 * the others sent (`absorb`), how they take the coordinator's latest result from the
 * store (`adopt`, when the result's version in the coordinator's record moved), and
 * what they do on becoming the coordinator (`takeOver`). A store only this process
 * crawls (a directory, memory) has `localCoordination`: always the coordinator, with
 * nothing to exchange, so that the jobs have one path.
 */
import { hostname } from 'node:os';
import { type PgCoordinator, PgStore, type Store } from '../store/index.js';
import { decodeBatch, type FeedBatch, isEmptyBatch } from './feed.js';

/** Meta key of the `CoordinatorRecord`. */
export const META_COORDINATOR = 'coordinator';
/** How often a process that is not the coordinator tries to become it. */
export const COORDINATION_POLL_MS = 5_000;
/** The least time between two exchanges with the feed (sending, or taking). */
export const FEED_INTERVAL_MS = 1_000;
/** Batches the coordinator takes from the feed at one exchange at most. */
export const FEED_TAKE_ROWS = 200;
/** Batches a process keeps to send again when sending failed (the oldest are dropped). */
const MAX_UNSENT = 50;

/** Who coordinates a shared crawl, and the versions of the results it wrote. */
export interface CoordinatorRecord {
  /** The coordinator, `host:pid`. */
  by: string;
  /** When it became the coordinator (ms since the epoch). */
  since: number;
  /** Per job (`SharedJob.name`), a number that grows each time the job writes its result. */
  versions: Record<string, number>;
}

/** What the crawl lends the coordination while it runs. */
export interface CoordinationHooks {
  /** Called after each poll, so that a crawl that commits nothing still exchanges. */
  poll(): void;
  /** This process took the role, or lost it. */
  warning(message: string): void;
}

/** A job whose result is the crawl's (module comment). */
export interface SharedJob {
  /** Its name in `CoordinatorRecord.versions`. */
  readonly name: string;
  /** Adds what this process judged since the last call to `batch` (and forgets it). */
  take?(batch: FeedBatch): void;
  /** Another process's batch (the coordinator only). */
  absorb?(batch: FeedBatch): void;
  /** Reads the coordinator's latest result from the store. */
  adopt?(): Promise<void>;
  /** This process became the coordinator (after `adopt`). */
  takeOver?(): Promise<void>;
}

export interface Coordination {
  /** Whether several processes may share the store (a PostgreSQL store). */
  readonly shared: boolean;
  /** This process, `host:pid`, on a shared store: written in what it changes. */
  readonly self: string | undefined;
  /** Whether this process runs the coordinator's jobs now. */
  isCoordinator(): boolean;
  join(job: SharedJob): void;
  /** The coordinator wrote `name`'s result: its version moves, so that the others adopt it. */
  published(name: string): Promise<void>;
  /**
   * Changes role when the lock was taken or lost; then the coordinator takes the
   * others' batches, the others send theirs and adopt the results that moved. At most
   * every FEED_INTERVAL_MS unless `force`d.
   */
  exchange(force?: boolean): Promise<void>;
  /** The crawl's hooks (`CoordinationHooks`); null detaches them. */
  attach(hooks: CoordinationHooks | null): void;
  /** Whether this process is the coordinator now, taking the lock if it is free (jobs of a run's end). */
  claim(): Promise<boolean>;
  /** Gives the role up (the lock's connection closes). */
  close(): Promise<void>;
}

/** The coordination of a store only this process crawls: always the coordinator. */
export const localCoordination: Coordination = {
  shared: false,
  self: undefined,
  isCoordinator: () => true,
  join: () => {},
  published: async () => {},
  exchange: async () => {},
  attach: () => {},
  claim: async () => true,
  close: async () => {},
};

class PgCoordination implements Coordination {
  readonly shared = true;
  readonly self = `${hostname()}:${process.pid}`;
  readonly #store: Store;
  readonly #lock: PgCoordinator;
  readonly #jobs: SharedJob[] = [];
  #acting = false;
  /** Versions of the results this process adopted (or wrote). */
  readonly #seen: Record<string, number> = {};
  #record: CoordinatorRecord | null = null;
  #last = 0;
  #unsent: string[] = [];
  #timer: NodeJS.Timeout | null = null;
  #hooks: CoordinationHooks | null = null;
  #polling = false;

  constructor(store: Store, lock: PgCoordinator) {
    this.#store = store;
    this.#lock = lock;
  }

  /** Tries the lock once; a process holding it from the start is the coordinator at once. */
  async start(): Promise<void> {
    if (await this.#lock.tryLock()) {
      this.#acting = true;
      await this.#writeRecord();
    }
    this.#timer = setInterval(() => void this.#tick(), COORDINATION_POLL_MS);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      await this.#lock.tryLock();
      this.#hooks?.poll();
    } finally {
      this.#polling = false;
    }
  }

  isCoordinator(): boolean {
    return this.#acting;
  }

  join(job: SharedJob): void {
    this.#jobs.push(job);
  }

  attach(hooks: CoordinationHooks | null): void {
    this.#hooks = hooks;
  }

  /** Names this process the coordinator, the versions going on; returns the record it replaced. */
  async #writeRecord(): Promise<CoordinatorRecord | undefined> {
    const before = await this.#store.getMeta<CoordinatorRecord>(META_COORDINATOR);
    this.#record = { by: this.self, since: Date.now(), versions: { ...before?.versions } };
    Object.assign(this.#seen, this.#record.versions);
    await this.#store.setMeta(META_COORDINATOR, this.#record);
    return before;
  }

  async published(name: string): Promise<void> {
    if (!this.#acting || this.#record === null) return;
    const v = (this.#record.versions[name] ?? 0) + 1;
    this.#record.versions[name] = v;
    this.#seen[name] = v;
    await this.#store.setMeta(META_COORDINATOR, this.#record);
  }

  async exchange(force = false): Promise<void> {
    const held = this.#lock.held;
    const turn = held !== this.#acting;
    const now = Date.now();
    if (!turn && !force && now - this.#last < FEED_INTERVAL_MS) return;
    this.#last = now;
    if (held && !this.#acting) await this.#takeOver();
    else if (!held && this.#acting) {
      // The lock's session ended under this process (its connection broke): another
      // process may coordinate already; this one sends what it judges from now on.
      this.#acting = false;
      this.#record = null;
      this.#hooks?.warning(
        'this process is no longer the coordinator: its connection to the database broke',
      );
    }
    if (this.#acting) await this.#take();
    else {
      await this.#send();
      await this.#adopt(false);
    }
  }

  async #takeOver(): Promise<void> {
    // The latest results first (whatever their versions say: a coordinator that died
    // between writing a result and its record leaves the result newer than the record).
    await this.#adopt(true);
    // What this process judged and did not send is the coordinator's own now.
    const mine = this.#collect();
    for (const j of this.#jobs) j.absorb?.(mine);
    for (const j of this.#jobs) await j.takeOver?.();
    this.#acting = true;
    const before = await this.#writeRecord();
    this.#hooks?.warning(
      `this process is the coordinator now${before ? ` (in place of ${before.by})` : ''}: it runs the crawl's adaptation, learning and ranking`,
    );
  }

  /** This process's batch, from every job. */
  #collect(): FeedBatch {
    const b: FeedBatch = {};
    for (const j of this.#jobs) j.take?.(b);
    return b;
  }

  async #send(): Promise<void> {
    const b = this.#collect();
    if (!isEmptyBatch(b)) {
      this.#unsent.push(JSON.stringify(b));
      if (this.#unsent.length > MAX_UNSENT) this.#unsent.shift();
    }
    while (this.#unsent.length > 0) {
      try {
        await this.#lock.send(this.self, this.#unsent[0] as string);
      } catch {
        return; // the next exchange sends it again
      }
      this.#unsent.shift();
    }
  }

  async #take(): Promise<void> {
    let rows: Awaited<ReturnType<PgCoordinator['take']>>;
    try {
      rows = await this.#lock.take(FEED_TAKE_ROWS);
    } catch {
      return; // the batches wait in the feed
    }
    for (const row of rows) {
      const b = decodeBatch(row.body);
      if (b === null) continue;
      for (const j of this.#jobs) j.absorb?.(b);
    }
  }

  /** Adopts the results whose version moved since this process last saw them (all, when `all`). */
  async #adopt(all: boolean): Promise<void> {
    const r = await this.#store.getMeta<CoordinatorRecord>(META_COORDINATOR);
    for (const j of this.#jobs) {
      if (j.adopt === undefined) continue;
      const v = r?.versions[j.name];
      if (!all && (v === undefined || v === this.#seen[j.name])) continue;
      await j.adopt();
      if (v !== undefined) this.#seen[j.name] = v;
    }
  }

  async claim(): Promise<boolean> {
    return this.#lock.tryLock();
  }

  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#hooks = null;
    this.#acting = false;
    await this.#lock.close();
  }
}

/**
 * The coordination of the processes crawling `store`: for a PostgreSQL store, through
 * its lock (tried at once: the first process is the coordinator from its start);
 * `localCoordination` for any other store.
 */
export async function openCoordination(store: Store): Promise<Coordination> {
  if (!(store instanceof PgStore)) return localCoordination;
  const c = new PgCoordination(store, store.openCoordinator());
  try {
    await c.start();
  } catch (e) {
    await c.close();
    throw e;
  }
  return c;
}
