/**
 * Leases in the SQLite store (schema version 6): the `leases` table and
 * `urls.lease_id`. Every function runs inside the caller's write transaction.
 */
import type Sqlite from 'better-sqlite3';
import { leaseLost } from './lease.js';
import type { Lease, LeaseOwner } from './types.js';

type Database = Sqlite.Database;

const LEASE = 'id, host, pid, started_at AS startedAt, expires_at AS expiresAt';

export class SqliteLeases {
  readonly #insert;
  readonly #renew;
  readonly #delete;
  readonly #exists;
  readonly #all;
  readonly #holds;
  readonly #releaseLease;
  readonly #releaseUnheld;

  constructor(db: Database) {
    this.#insert = db.prepare<[string, number, number, number], number>(
      'INSERT INTO leases (host, pid, started_at, expires_at) VALUES (?, ?, ?, ?) RETURNING id',
    );
    this.#insert.pluck();
    this.#renew = db.prepare<[number, number]>('UPDATE leases SET expires_at = ? WHERE id = ?');
    this.#delete = db.prepare<[number]>('DELETE FROM leases WHERE id = ?');
    this.#exists = db.prepare<[number], number>('SELECT 1 FROM leases WHERE id = ?').pluck();
    this.#all = db.prepare<[], Lease>(`SELECT ${LEASE} FROM leases ORDER BY id`);
    this.#holds = db
      .prepare<[number, number], number>(
        'SELECT 1 FROM urls WHERE id = ? AND state = 1 AND lease_id = ?',
      )
      .pluck();
    this.#releaseLease = db.prepare<[number]>(
      'UPDATE urls SET state = 0, lease_id = NULL WHERE state = 1 AND lease_id = ?',
    );
    this.#releaseUnheld = db.prepare<[]>(
      `UPDATE urls SET state = 0, lease_id = NULL
       WHERE state = 1 AND (lease_id IS NULL OR lease_id NOT IN (SELECT id FROM leases))`,
    );
  }

  open(owner: LeaseOwner, expiresAt: number): Lease {
    const id = this.#insert.get(owner.host, owner.pid, owner.startedAt, expiresAt) as number;
    return { id, host: owner.host, pid: owner.pid, startedAt: owner.startedAt, expiresAt };
  }

  renew(id: number, expiresAt: number): boolean {
    return this.#renew.run(expiresAt, id).changes > 0;
  }

  isOpen(id: number): boolean {
    return this.#exists.get(id) !== undefined;
  }

  list(): Lease[] {
    return this.#all.all();
  }

  /** Whether the URL with id `urlId` is processing, claimed under lease `id`. */
  holds(urlId: number, id: number): boolean {
    return this.#holds.get(urlId, id) !== undefined;
  }

  /** Closes a lease and puts its claims back to waiting; returns how many. */
  close(id: number): number {
    this.#delete.run(id);
    return this.#releaseLease.run(id).changes;
  }

  /**
   * Closes the leases lost at `now` and puts the claims held by nobody back to
   * waiting; returns how many.
   */
  recover(now: number): number {
    for (const l of this.#all.all()) if (leaseLost(l, now)) this.#delete.run(l.id);
    return this.#releaseUnheld.run().changes;
  }
}
