/**
 * The PostgreSQL store (docs/scale-out.md): the Store contract on a schema of a
 * PostgreSQL database, for crawls whose workers run on many machines. Every call is
 * one statement or one transaction on a pooled connection; concurrent claims from
 * any number of processes never share a URL (`FOR UPDATE SKIP LOCKED`), and every
 * write checks the claim it finishes under the lease it names. The methods live
 * with their contract: pg-frontier.ts, pg-claims.ts, pg-commit.ts, pg-read.ts,
 * pg-fields.ts, pg-search.ts, pg-revisits.ts, pg-browse.ts. Open one with `openPgStore`.
 */

import { StoreError } from '../errors/index.js';
import type { Browse } from './browse.js';
import type {
  Claims,
  ExtractedFields,
  Frontier,
  Leases,
  LinkGraph,
  Records,
  Revisits,
  RunRecords,
  SearchIndex,
  Store,
} from './contracts.js';
import { type BodyPlace, DATABASE_BODIES } from './pg-bodies.js';
import { browseMethods } from './pg-browse.js';
import { claimMethods } from './pg-claims.js';
import { commitMethods } from './pg-commit.js';
import { type LockClientFactory, PgCoordinator } from './pg-coordinator.js';
import type { PgDb } from './pg-db.js';
import { fieldMethods } from './pg-fields.js';
import { frontierMethods } from './pg-frontier.js';
import {
  acquireHost,
  type HostLeaseLimits,
  type PgHealth,
  pgHealth,
  releaseHost,
} from './pg-hosts.js';
import { type RunPace, reportPages, runPaces, takeBudget } from './pg-pace.js';
import { readMethods } from './pg-read.js';
import { revisitMethods } from './pg-revisits.js';
import { searchMethods } from './pg-search.js';
import { OutcomeShortcuts } from './shortcuts.js';
import type { CommitResult, LeaseOptions, Outcome } from './types.js';

/** The contracts' methods, set in the constructor from their files. */
export interface PgStore
  extends Frontier,
    Omit<Claims, 'complete' | 'discard' | 'fail' | 'redirect' | 'commit'>,
    Leases,
    Records,
    LinkGraph,
    SearchIndex,
    RunRecords,
    Revisits,
    ExtractedFields,
    Browse {}

export class PgStore extends OutcomeShortcuts implements Store {
  readonly #db: PgDb;
  readonly #bodies: BodyPlace;
  readonly #lockClient: LockClientFactory | undefined;
  readonly #commit: (outcomes: readonly Outcome[], options?: LeaseOptions) => Promise<CommitResult>;

  /** Use `openPgStore`. */
  constructor(db: PgDb, bodies: BodyPlace = DATABASE_BODIES, lockClient?: LockClientFactory) {
    super();
    this.#db = db;
    this.#lockClient = lockClient;
    this.#bodies = bodies;
    const { commit } = commitMethods(db, bodies);
    this.#commit = commit;
    Object.assign(
      this,
      frontierMethods(db),
      claimMethods(db),
      readMethods(db, bodies),
      fieldMethods(db),
      searchMethods(db),
      revisitMethods(db, bodies),
      browseMethods(db),
    );
  }

  /** The store's URL (without its password). */
  get location(): string {
    return this.#db.location;
  }

  /** The store's schema. */
  get schema(): string {
    return this.#db.schema;
  }

  commit(outcomes: readonly Outcome[], options?: LeaseOptions): Promise<CommitResult> {
    return this.#commit(outcomes, options);
  }

  /**
   * Takes `host` for one request of this worker when every worker of the store
   * together allows it (its delay since the last request ended, fewer than
   * `limits.perHost` under way): resolves to 0, else to the ms to wait before asking
   * again (shared politeness, pg-hosts.ts).
   */
  acquireHost(host: string, delayMs: number, limits: HostLeaseLimits): Promise<number> {
    return acquireHost(this.#db, host, delayMs, limits);
  }

  /**
   * The request taken with `acquireHost` is over: the host is free, its next request
   * `delayMs` from now. Never throws: a failure leaves the host to its hold time.
   */
  releaseHost(host: string, delayMs: number): void {
    releaseHost(this.#db, host, delayMs).catch(() => {});
  }

  /** The database's figures for `status`: its size, connections, dead rows. */
  health(): Promise<PgHealth> {
    return pgHealth(this.#db);
  }

  /** The coordinator's lock and feed, on a connection of their own (pg-coordinator.ts). */
  openCoordinator(): PgCoordinator {
    const connect = this.#lockClient;
    if (connect === undefined)
      throw new StoreError(`${this.location}: opened without a lock connection`);
    return new PgCoordinator(connect, this.schema, this.location);
  }

  /**
   * Takes `count` requests from the budget `name` shared by every process of the
   * store, refilled one request per `intervalMs`; resolves to the ms to wait before
   * the first may start (pg-pace.ts).
   */
  takeBudget(name: string, count: number, intervalMs: number): Promise<number> {
    return takeBudget(this.#db, name, count, intervalMs);
  }

  /** Records the pages the run of lease `id` has fetched so far (its pace for `status`). */
  reportPages(id: number, pages: number): Promise<boolean> {
    return reportPages(this.#db, id, pages);
  }

  /** The pace of every open lease's run, by lease id. */
  runPaces(): Promise<Map<number, RunPace>> {
    return runPaces(this.#db);
  }

  /** Where the bodies live: `database`, `file:///…` or `s3://…` (pg-bodies.ts). */
  get bodies(): string {
    return this.#bodies.shown;
  }

  async close(): Promise<void> {
    await this.#db.close();
    await this.#bodies.close();
  }
}
