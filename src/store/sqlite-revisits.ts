/**
 * The revisit path in the SQLite store (schema version 7): the `revisits` and
 * `visits` tables. `claimDue` falls back to the validators of a page's first fetch
 * (`pages`, version 8) while its revisit record has none. Every method runs inside
 * the caller's transaction, except the reads, which are plain statements.
 */
import type Sqlite from 'better-sqlite3';
import { StoreStateError } from '../errors/index.js';
import type {
  DueRevisit,
  RevisitRecord,
  RevisitSchedule,
  RevisitTotals,
  VisitChange,
  VisitOutcome,
  VisitRecord,
} from './revisit-types.js';
import { VISIT_CHANGES } from './revisit-types.js';
import { STATE_CODE } from './schema.js';

type Database = Sqlite.Database;

const CHANGE_CODE: Record<VisitChange, number> = { unchanged: 0, changed: 1, gone: 2, failed: 3 };

interface ClaimRow {
  url_id: number;
  claimed: number;
  lease_id: number | null;
}

const RECORD = `u.url, r.visits, r.changes, r.last_visit_at AS lastVisitAt,
  r.last_change_at AS lastChangeAt, r.etag, r.last_modified AS lastModified, r.rate,
  r.due_at AS dueAt, r.gone_at AS goneAt, r.claimed`;

export class SqliteRevisits {
  readonly #db: Database;
  readonly #start;
  readonly #schedule;
  readonly #claimable;
  readonly #claim;
  readonly #claimOf;
  readonly #visit;
  readonly #answered;
  readonly #failed;
  readonly #replace;
  readonly #release;
  readonly #releaseLease;
  readonly #releaseUnheld;

  constructor(db: Database) {
    this.#db = db;
    this.#start = db.prepare<[{ id: number }]>(
      `INSERT INTO revisits (url_id, last_visit_at)
       SELECT @id, p.fetched_at FROM pages p JOIN urls u ON u.id = p.url_id
       WHERE p.url_id = @id AND u.state = ${STATE_CODE.complete}
       ON CONFLICT (url_id) DO NOTHING`,
    );
    this.#schedule = db.prepare<
      [{ id: number; dueAt: number | null; setRate: number; rate: number | null }]
    >(
      'UPDATE revisits SET due_at = @dueAt, rate = CASE WHEN @setRate THEN @rate ELSE rate END WHERE url_id = @id',
    );
    this.#claimable = db.prepare<[number, number], DueRevisit>(
      `SELECT u.id, u.url, u.depth, r.due_at AS dueAt, COALESCE(r.etag, p.etag) AS etag,
         COALESCE(r.last_modified, p.last_modified) AS lastModified,
         p.content_hash AS contentHash, p.text_hash AS textHash, r.visits, r.changes,
         r.last_visit_at AS lastVisitAt, r.rate
       FROM revisits r JOIN urls u ON u.id = r.url_id JOIN pages p ON p.url_id = r.url_id
       WHERE r.due_at IS NOT NULL AND r.claimed = 0 AND r.due_at <= ?
       ORDER BY r.due_at, r.url_id LIMIT ?`,
    );
    this.#claim = db.prepare<[number | null, number]>(
      'UPDATE revisits SET claimed = 1, lease_id = ? WHERE url_id = ?',
    );
    this.#claimOf = db.prepare<[string], ClaimRow>(
      'SELECT r.url_id, r.claimed, r.lease_id FROM revisits r JOIN urls u ON u.id = r.url_id WHERE u.url = ?',
    );
    this.#visit = db.prepare<
      [
        number,
        number,
        number | null,
        number,
        string | null,
        string | null,
        number | null,
        string | null,
        string | null,
      ]
    >(
      `INSERT INTO visits (url_id, at, status, change, content_hash, text_hash, last_modified, error, body_file)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#answered = db.prepare(
      `UPDATE revisits SET claimed = 0, lease_id = NULL, visits = visits + 1,
         changes = changes + @changed, last_visit_at = @at,
         last_change_at = CASE WHEN @changed THEN @at ELSE last_change_at END,
         etag = CASE WHEN @setEtag THEN @etag ELSE etag END,
         last_modified = CASE WHEN @setLm THEN @lastModified ELSE last_modified END,
         rate = CASE WHEN @setRate THEN @rate ELSE rate END,
         due_at = @dueAt, gone_at = CASE WHEN @gone THEN @at ELSE gone_at END
       WHERE url_id = @id`,
    );
    this.#failed = db.prepare(
      `UPDATE revisits SET claimed = 0, lease_id = NULL,
         rate = CASE WHEN @setRate THEN @rate ELSE rate END, due_at = @dueAt
       WHERE url_id = @id`,
    );
    this.#replace = db.prepare(
      `UPDATE pages SET fetched_at = @at, status = @status, content_type = @contentType,
         bytes = @bytes, title = @title, relevance = @relevance, content_hash = @contentHash,
         text_hash = @textHash, body_file = COALESCE(@bodyFile, body_file)
       WHERE url_id = @id`,
    );
    this.#release = db.prepare<[number]>(
      'UPDATE revisits SET claimed = 0, lease_id = NULL WHERE url_id = ? AND claimed = 1',
    );
    this.#releaseLease = db.prepare<[number]>(
      'UPDATE revisits SET claimed = 0, lease_id = NULL WHERE claimed = 1 AND lease_id = ?',
    );
    this.#releaseUnheld = db.prepare(
      `UPDATE revisits SET claimed = 0, lease_id = NULL
       WHERE claimed = 1 AND (lease_id IS NULL OR lease_id NOT IN (SELECT id FROM leases))`,
    );
  }

  schedule(items: readonly RevisitSchedule[], idOf: (url: string) => number | undefined): number {
    let n = 0;
    for (const it of items) {
      const id = idOf(it.url);
      if (id === undefined) continue;
      this.#start.run({ id });
      const setRate = it.rate === undefined ? 0 : 1;
      n += this.#schedule.run({ id, dueAt: it.dueAt, setRate, rate: it.rate ?? null }).changes;
    }
    return n;
  }

  claim(n: number, now: number, lease: number | undefined): DueRevisit[] {
    const due = this.#claimable.all(now, n);
    for (const d of due) this.#claim.run(lease ?? null, d.id);
    return due;
  }

  /** The visits whose claims `lease` holds (all claimed ones without a lease: others throw). */
  held(
    visits: readonly VisitOutcome[],
    lease: number | undefined,
    refused: string[],
  ): VisitOutcome[] {
    return visits.filter((v) => {
      const row = this.#claimOf.get(v.url);
      const claimed = row !== undefined && row.claimed === 1;
      if (lease === undefined) {
        if (claimed) return true;
        throw new StoreStateError(
          `cannot record a visit of ${v.url}: it is not claimed for a revisit`,
          {
            url: v.url,
          },
        );
      }
      if (claimed && row.lease_id === lease) return true;
      refused.push(v.url);
      return false;
    });
  }

  /**
   * Records checked visits; `bodyFile` names a changed visit's new body when one was
   * written, `versionFile` its kept version's; `queue` queues a visit's new URLs
   * (`id`: the visited page's) and returns how many were new. Returns their sum.
   */
  record(
    visits: readonly VisitOutcome[],
    bodyFile: (url: string) => string | undefined,
    versionFile: (url: string) => string | undefined,
    queue: (v: VisitOutcome, id: number) => number,
  ): number {
    let added = 0;
    for (const v of visits) {
      const id = (this.#claimOf.get(v.url) as ClaimRow).url_id;
      if (v.newUrls !== undefined) added += queue(v, id);
      this.#visit.run(
        id,
        v.at,
        v.status,
        CHANGE_CODE[v.change],
        v.contentHash ?? null,
        v.textHash ?? null,
        v.lastModifiedMs ?? null,
        v.change === 'failed' ? (v.error ?? 'failed') : null,
        versionFile(v.url) ?? null,
      );
      const setRate = v.rate === undefined ? 0 : 1;
      const rate = v.rate ?? null;
      if (v.change === 'failed') {
        this.#failed.run({ id, setRate, rate, dueAt: v.dueAt });
        continue;
      }
      const gone = v.change === 'gone' ? 1 : 0;
      this.#answered.run({
        id,
        at: v.at,
        changed: v.change === 'changed' ? 1 : 0,
        setEtag: v.etag === undefined ? 0 : 1,
        etag: v.etag ?? null,
        setLm: v.lastModified === undefined ? 0 : 1,
        lastModified: v.lastModified ?? null,
        setRate,
        rate,
        dueAt: gone ? null : v.dueAt,
        gone,
      });
      if (v.change === 'changed' && v.page !== undefined) {
        this.#replace.run({
          id,
          at: v.at,
          status: v.page.status,
          contentType: v.page.contentType,
          bytes: v.page.bytes,
          title: v.page.title,
          relevance: v.page.relevance,
          contentHash: v.contentHash ?? null,
          textHash: v.textHash ?? null,
          bodyFile: bodyFile(v.url) ?? null,
        });
      }
    }
    return added;
  }

  release(ids: readonly number[]): number {
    let n = 0;
    for (const id of ids) n += this.#release.run(id).changes;
    return n;
  }

  /** The URLs among `urls` whose revisit claims `lease` holds (every claimed one without a lease). */
  claimedIds(urls: readonly string[], lease: number | undefined): number[] {
    const out: number[] = [];
    for (const u of urls) {
      const row = this.#claimOf.get(u);
      if (row?.claimed === 1 && (lease === undefined || row.lease_id === lease))
        out.push(row.url_id);
    }
    return out;
  }

  closeLease(id: number): number {
    return this.#releaseLease.run(id).changes;
  }

  /** Gives back the claims held by nobody (run after the lost leases are closed). */
  recover(): number {
    return this.#releaseUnheld.run().changes;
  }

  /** Up to `limit` revisit records of URLs with an id above `afterId`, in id order. */
  records(afterId: number, limit: number): (RevisitRecord & { id: number })[] {
    return this.#db
      .prepare<[number, number], Omit<RevisitRecord, 'claimed'> & { id: number; claimed: number }>(
        `SELECT r.url_id AS id, ${RECORD} FROM revisits r JOIN urls u ON u.id = r.url_id
         WHERE r.url_id > ? ORDER BY r.url_id LIMIT ?`,
      )
      .all(afterId, limit)
      .map((r) => ({ ...r, claimed: r.claimed === 1 }));
  }

  /** Up to `limit` visits recorded after visit `afterId` (of one URL when given), in order. */
  visits(
    afterId: number,
    url: string | undefined,
    limit: number,
  ): (VisitRecord & { id: number })[] {
    return this.#db
      .prepare<
        [number, string | null, string | null, number],
        Omit<VisitRecord, 'change'> & { id: number; change: number }
      >(
        `SELECT v.id, u.url, v.at, v.status, v.change, v.content_hash AS contentHash,
           v.text_hash AS textHash, v.last_modified AS lastModifiedMs, v.error,
           v.body_file AS bodyFile
         FROM visits v JOIN urls u ON u.id = v.url_id
         WHERE v.id > ? AND (? IS NULL OR u.url = ?) ORDER BY v.id LIMIT ?`,
      )
      .all(afterId, url ?? null, url ?? null, limit)
      .map((r) => ({ ...r, change: VISIT_CHANGES[r.change] as VisitChange }));
  }

  /** The kept version body's file of the visit of `url` at `at`, if any. */
  versionFile(url: string, at: number): string | undefined {
    const f = this.#db
      .prepare<[string, number], string | null>(
        'SELECT v.body_file FROM visits v JOIN urls u ON u.id = v.url_id WHERE u.url = ? AND v.at = ? ORDER BY v.id DESC LIMIT 1',
      )
      .pluck()
      .get(url, at);
    return f ?? undefined;
  }

  totals(now: number): RevisitTotals {
    const t = this.#db
      .prepare<
        [number],
        { tracked: number; scheduled: number; due: number; nextDueAt: number | null; gone: number }
      >(
        `SELECT count(*) AS tracked, count(due_at) AS scheduled,
           coalesce(sum(due_at <= ?), 0) AS due, min(due_at) AS nextDueAt, count(gone_at) AS gone
         FROM revisits`,
      )
      .get(now) as {
      tracked: number;
      scheduled: number;
      due: number;
      nextDueAt: number | null;
      gone: number;
    };
    const visits: Record<VisitChange, number> = { unchanged: 0, changed: 0, gone: 0, failed: 0 };
    for (const r of this.#db
      .prepare<[], { change: number; n: number }>(
        'SELECT change, count(*) AS n FROM visits GROUP BY change',
      )
      .all())
      visits[VISIT_CHANGES[r.change] as VisitChange] = r.n;
    return { ...t, visits };
  }
}
