/**
 * The coordinator's lock of a PostgreSQL store (docs/scale-out.md, "The coordinator"):
 * one process at a time among those crawling the store holds a session-level advisory
 * lock, on a connection of its own. PostgreSQL frees a session's advisory locks when
 * the session ends, so when the holder dies (kill -9, power loss, network cut) the
 * lock is free again as soon as the server notices, and the next process that tries
 * takes it: no lease to expire, no clock to trust.
 *
 * The same connection carries the feed: what each process judged, in batches
 * (`coordination_feed`, one row a batch), sent by the processes that are not the
 * coordinator and taken by the coordinator. Taking deletes the rows in the statement
 * that returns them, so each batch reaches one coordinator once, whatever the order in
 * which concurrent senders commit.
 */
import type pg from 'pg';
import { StoreError } from '../errors/index.js';

/** A connection of the store's, not pooled, on the store's schema. */
export type LockClientFactory = () => pg.Client;

/** One batch of the feed, as sent. */
export interface FeedRow {
  id: number;
  /** The sender, `host:pid`. */
  by: string;
  /** When it was sent (ms since the epoch, the sender's clock). */
  at: number;
  body: string;
}

/** The lock's key: the store's schema, hashed to PostgreSQL's 64-bit advisory key space. */
export function coordinatorLockName(schema: string): string {
  return `focuscrawl.coordinator.${schema}`;
}

export class PgCoordinator {
  readonly #connect: LockClientFactory;
  readonly #name: string;
  readonly #shown: string;
  #client: pg.Client | null = null;
  #opening: Promise<pg.Client> | null = null;
  #held = false;
  #closed = false;

  /** Use `PgStore.openCoordinator`. */
  constructor(connect: LockClientFactory, schema: string, shown: string) {
    this.#connect = connect;
    this.#name = coordinatorLockName(schema);
    this.#shown = shown;
  }

  /** Whether this process holds the lock (as far as its connection knows). */
  get held(): boolean {
    return this.#held;
  }

  async #conn(): Promise<pg.Client> {
    if (this.#closed)
      throw new StoreError(`the coordinator's connection to ${this.#shown} is closed`);
    if (this.#client !== null) return this.#client;
    this.#opening ??= (async () => {
      const c = this.#connect();
      // A connection that breaks loses the lock with its session: say so at once, and
      // open a new one at the next attempt.
      c.on('error', () => this.#lost(c));
      c.on('end', () => this.#lost(c));
      try {
        await c.connect();
      } catch (e) {
        this.#lost(c);
        throw e;
      }
      this.#client = c;
      return c;
    })().finally(() => {
      this.#opening = null;
    });
    return this.#opening;
  }

  #lost(c: pg.Client): void {
    if (this.#client === c || this.#client === null) {
      this.#client = null;
      this.#held = false;
    }
    c.end().catch(() => {});
  }

  /**
   * Takes the lock when it is free; resolves to whether this process holds it. A holder
   * checks that its session still lives. A failure (the database unreachable) is not
   * thrown: the process is not the coordinator until a later attempt succeeds.
   */
  async tryLock(): Promise<boolean> {
    let c: pg.Client | undefined;
    try {
      c = await this.#conn();
      if (this.#held) {
        await c.query('SELECT 1');
        return this.#held;
      }
      const r = await c.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok',
        [this.#name],
      );
      this.#held = r.rows[0]?.ok === true;
    } catch {
      if (c !== undefined) this.#lost(c);
    }
    return this.#held;
  }

  /** Sends one batch to the feed. */
  async send(by: string, body: string): Promise<void> {
    try {
      const c = await this.#conn();
      await c.query('INSERT INTO coordination_feed (by, at, body) VALUES ($1, $2, $3)', [
        by,
        Date.now(),
        body,
      ]);
    } catch (e) {
      throw new StoreError(`sending to the coordinator on ${this.#shown} failed: ${String(e)}`, {
        cause: e,
      });
    }
  }

  /** Takes (and deletes) up to `limit` batches of the feed, oldest first. */
  async take(limit: number): Promise<FeedRow[]> {
    try {
      const c = await this.#conn();
      const r = await c.query<FeedRow>(
        `DELETE FROM coordination_feed WHERE id IN (
           SELECT id FROM coordination_feed ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id, by, at, body`,
        [limit],
      );
      return r.rows
        .map((row) => ({ ...row, id: Number(row.id), at: Number(row.at) }))
        .sort((a, b) => a.id - b.id);
    } catch (e) {
      throw new StoreError(
        `reading the coordinator's feed on ${this.#shown} failed: ${String(e)}`,
        {
          cause: e,
        },
      );
    }
  }

  /** Closes the connection: the lock, if held, is free again. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#held = false;
    await this.#opening?.catch(() => {});
    const c = this.#client;
    this.#client = null;
    await c?.end().catch(() => {});
  }
}
