/**
 * The connection of a PostgreSQL store: a pool of clients on one schema, statements
 * and transactions whose driver errors become `StoreError` naming the store and the
 * call, transactions retried when PostgreSQL gives up one of two conflicting writers
 * (deadlock, serialization failure), totals written from a `Tally` before commit,
 * and cursors that stream a query's rows without loading them.
 */
import type { Pool, PoolClient } from 'pg';
import { FocusCrawlError, StoreError } from '../errors/index.js';
import { COUNTER_SLOTS } from './pg-schema.js';
import { Tally } from './tally.js';

export type Row = Record<string, unknown>;

/** Runs one statement on the connection it is bound to; resolves to the rows. */
export type Sql = <R extends Row = Row>(text: string, params?: readonly unknown[]) => Promise<R[]>;

/** SQLSTATEs of a transaction PostgreSQL gave up so that another could go on. */
const RETRYABLE = new Set(['40001', '40P01']);
/** Attempts of a transaction that keeps losing to others. */
const TX_ATTEMPTS = 8;
/** Rows a cursor fetches at a time. */
const STREAM_BATCH = 500;

/**
 * PostgreSQL's text cannot hold U+0000, which pages, titles and anchors may carry: it
 * is stored as U+FFFD, in every string parameter (and strings in array parameters).
 */
function clean(params: readonly unknown[] | undefined): unknown[] | undefined {
  if (params === undefined) return undefined;
  let out: unknown[] | undefined;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    let c = p;
    if (typeof p === 'string') {
      if (p.includes('\0')) c = p.replaceAll('\0', '\uFFFD');
    } else if (Array.isArray(p) && p.some((x) => typeof x === 'string' && x.includes('\0'))) {
      c = p.map((x) => (typeof x === 'string' ? x.replaceAll('\0', '\uFFFD') : x));
    }
    if (c !== p) {
      out ??= [...params];
      out[i] = c;
    }
  }
  return out ?? (params as unknown[]);
}

function bind(c: PoolClient): Sql {
  return async <R extends Row>(text: string, params?: readonly unknown[]) =>
    (await c.query<R>(text, clean(params))).rows;
}

/** Writes the totals a transaction changed: counters and hosts, on one slot. */
export async function applyTally(q: Sql, t: Tally): Promise<void> {
  const slot = Math.floor(Math.random() * COUNTER_SLOTS);
  // Sorted by key, so that two transactions lock the rows in the same order.
  const counters = t.counters().sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (counters.length > 0) {
    await q(
      `INSERT INTO counters (name, slot, n)
       SELECT name, $1, n FROM unnest($2::text[], $3::bigint[]) AS d(name, n)
       ON CONFLICT (name, slot) DO UPDATE SET n = counters.n + excluded.n`,
      [slot, counters.map((c) => c[0]), counters.map((c) => c[1])],
    );
  }
  if (t.hosts.size > 0) {
    const hosts = [...t.hosts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const col = (i: number) => hosts.map((h) => h[1][i] ?? 0);
    await q(
      `INSERT INTO hosts (host, slot, discovered, complete, discard, error, bytes, redirect)
       SELECT host, $1, d, c, x, e, b, r
       FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[])
         AS d(host, d, c, x, e, b, r)
       ON CONFLICT (host, slot) DO UPDATE SET
         discovered = hosts.discovered + excluded.discovered,
         complete = hosts.complete + excluded.complete,
         discard = hosts.discard + excluded.discard,
         error = hosts.error + excluded.error,
         bytes = hosts.bytes + excluded.bytes,
         redirect = hosts.redirect + excluded.redirect`,
      [slot, hosts.map((h) => h[0]), col(0), col(1), col(2), col(3), col(4), col(5)],
    );
  }
}

export class PgDb {
  readonly #pool: Pool;
  /** The store's URL without its password, for messages. */
  readonly location: string;
  readonly schema: string;
  readonly readonly: boolean;
  readonly #pending = new Set<Promise<unknown>>();
  #closing = false;

  /** A connection of its own for `quick` statements, opened on first use. */
  #quickPool: Pool | undefined;
  readonly #newQuickPool: (() => Pool) | undefined;

  constructor(
    pool: Pool,
    location: string,
    schema: string,
    readonly: boolean,
    newQuickPool?: () => Pool,
  ) {
    this.#pool = pool;
    this.#newQuickPool = newQuickPool;
    this.location = location;
    this.schema = schema;
    this.readonly = readonly;
  }

  /** Turns a driver error into a `StoreError` naming the store and the call. */
  error(op: string, e: unknown): Error {
    if (e instanceof FocusCrawlError) return e;
    const code = (e as { code?: string }).code;
    const detail = code !== undefined ? ` (SQLSTATE ${code})` : '';
    return new StoreError(`${op} on ${this.location} failed: ${(e as Error).message}${detail}`, {
      cause: e,
    });
  }

  #open(op: string): void {
    if (this.#closing) throw new StoreError(`${op}: the store ${this.location} is closed`);
  }

  #writable(op: string): void {
    if (this.readonly) {
      throw new StoreError(`${op}: the store ${this.location} is open read-only`);
    }
  }

  /** Tracks a call so that `close` waits for it. */
  #track<T>(p: Promise<T>): Promise<T> {
    this.#pending.add(p);
    const done = () => this.#pending.delete(p);
    p.then(done, done);
    return p;
  }

  /** One statement on its own (autocommit). */
  query<R extends Row = Row>(op: string, text: string, params?: readonly unknown[]): Promise<R[]> {
    this.#open(op);
    return this.#track(
      (async () => {
        try {
          return (await this.#pool.query<R>(text, clean(params))).rows;
        } catch (e) {
          throw this.error(op, e);
        }
      })(),
    );
  }

  /**
   * One statement on a connection of its own, never queued behind the pool's
   * transactions: for statements whose timing matters (shared politeness).
   */
  quick<R extends Row = Row>(op: string, text: string, params?: readonly unknown[]): Promise<R[]> {
    this.#open(op);
    this.#quickPool ??= this.#newQuickPool?.() ?? this.#pool;
    const pool = this.#quickPool;
    return this.#track(
      (async () => {
        try {
          return (await pool.query<R>(text, clean(params))).rows;
        } catch (e) {
          throw this.error(op, e);
        }
      })(),
    );
  }

  /**
   * A write transaction (READ COMMITTED). `fn` gets the transaction's statements and a
   * `Tally` whose totals are written before COMMIT. When PostgreSQL aborts it for a
   * deadlock or a serialization failure, the whole of `fn` runs again (up to 8 times):
   * `fn` must have no effect outside the database. Refused on a read-only store.
   */
  tx<T>(op: string, fn: (q: Sql, t: Tally) => Promise<T>): Promise<T> {
    this.#open(op);
    this.#writable(op);
    return this.#track(this.#run(op, 'BEGIN', fn, true));
  }

  /** A read-only transaction on one snapshot (REPEATABLE READ): consistent multi-statement reads. */
  read<T>(op: string, fn: (q: Sql) => Promise<T>): Promise<T> {
    this.#open(op);
    return this.#track(
      this.#run(op, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', (q) => fn(q), false),
    );
  }

  async #run<T>(
    op: string,
    begin: string,
    fn: (q: Sql, t: Tally) => Promise<T>,
    tally: boolean,
  ): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (e) {
      throw this.error(op, e);
    }
    let broken: Error | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        const q = bind(client);
        try {
          await q(begin);
          const t = new Tally();
          const r = await fn(q, t);
          if (tally) await applyTally(q, t);
          await q('COMMIT');
          return r;
        } catch (e) {
          try {
            await q('ROLLBACK');
          } catch (re) {
            broken = re as Error; // the connection is unusable: do not pool it again
            throw this.error(op, e);
          }
          const code = (e as { code?: string }).code;
          if (code !== undefined && RETRYABLE.has(code) && attempt < TX_ATTEMPTS) {
            await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
            continue;
          }
          throw this.error(op, e);
        }
      }
    } finally {
      client.release(broken);
    }
  }

  /**
   * The rows of a query, streamed through a cursor in one read-only transaction (one
   * snapshot) that holds a connection until the iteration ends or is left.
   */
  async *stream<R extends Row = Row>(
    op: string,
    text: string,
    params?: readonly unknown[],
  ): AsyncGenerator<R> {
    this.#open(op);
    let client: PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (e) {
      throw this.error(op, e);
    }
    const q = bind(client);
    let broken: Error | undefined;
    let done = false;
    try {
      try {
        await q('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await q(`DECLARE fc_stream NO SCROLL CURSOR FOR ${text}`, params);
      } catch (e) {
        throw this.error(op, e);
      }
      for (;;) {
        let rows: R[];
        try {
          rows = await q<R>(`FETCH ${STREAM_BATCH} FROM fc_stream`);
        } catch (e) {
          throw this.error(op, e);
        }
        for (const r of rows) yield r;
        if (rows.length < STREAM_BATCH) break;
      }
      done = true;
    } finally {
      try {
        await q(done ? 'COMMIT' : 'ROLLBACK');
      } catch (e) {
        broken = e as Error;
      }
      client.release(broken);
    }
  }

  /** Waits for the calls under way, then closes the pool. Later calls throw `StoreError`. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await Promise.allSettled([...this.#pending]);
    if (this.#quickPool !== undefined && this.#quickPool !== this.#pool)
      await this.#quickPool.end();
    await this.#pool.end();
  }
}
