/**
 * The PostgreSQL store's revisit path (`Revisits`, DESIGN 1.3): the `revisits` and
 * `visits` tables. Input is checked as the SQLite store checks it; claims are taken
 * with FOR UPDATE SKIP LOCKED, so that concurrent workers never share a revisit;
 * `claimDue` falls back to the validators of a page's first fetch while its revisit
 * record has none. Recording visits lives in pg-visits.ts.
 */
import type { Revisits } from './contracts.js';
import { checkCommitOptions, leaseLostError } from './lease.js';
import { type BodyPlace, getBody } from './pg-bodies.js';
import type { PgDb } from './pg-db.js';
import { urlKey } from './pg-find.js';
import { packVisitBodies, recordVisitsTx, visitsToRecord } from './pg-visits.js';
import type {
  DueRevisit,
  RevisitRecord,
  RevisitSchedule,
  RevisitTotals,
  VisitChange,
  VisitRecord,
} from './revisit-types.js';
import { VISIT_CHANGES } from './revisit-types.js';
import { STATE_CODE } from './schema.js';
import { checkUrlList } from './validate.js';
import { checkClaimDue, checkSchedules, checkVisits } from './validate-revisits.js';

type RevisitRow = Omit<RevisitRecord, 'claimed'> & { claimed: number } & Record<string, unknown>;
type VisitRow = Omit<VisitRecord, 'change'> & { change: number } & Record<string, unknown>;
type DueRow = DueRevisit & Record<string, unknown>;

const byDue = (a: DueRevisit, b: DueRevisit): number => a.dueAt - b.dueAt || a.id - b.id;

/** One schedule per URL, folded in order: the last due time, the last rate given. */
function foldSchedules(items: readonly RevisitSchedule[]): Map<string, RevisitSchedule> {
  const out = new Map<string, RevisitSchedule>();
  for (const it of items) {
    const prev = out.get(it.url);
    const rate = it.rate !== undefined ? it.rate : prev?.rate;
    out.set(it.url, rate === undefined ? { url: it.url, dueAt: it.dueAt } : { ...it, rate });
  }
  return out;
}

export function revisitMethods(db: PgDb, place: BodyPlace): Pick<Revisits, keyof Revisits> {
  return {
    async scheduleRevisits(items) {
      checkSchedules('scheduleRevisits', items);
      if (items.length === 0) return 0;
      const folded = [...foldSchedules(items).values()];
      const keys = folded.map((s) => urlKey(s.url));
      const set = await db.tx('scheduleRevisits', async (q) => {
        // The first schedule starts the record of a complete page: no revisit yet,
        // last visited when it was fetched.
        await q(
          `INSERT INTO revisits (url_id, last_visit_at)
           SELECT u.id, p.fetched_at FROM urls u JOIN pages p ON p.url_id = u.id
           WHERE u.url_key = ANY($1::uuid[]) AND u.state = ${STATE_CODE.complete}
           ORDER BY u.id
           ON CONFLICT (url_id) DO NOTHING`,
          [keys],
        );
        const rows = await q<{ url: string }>(
          `WITH l AS (
             SELECT r.url_id, u.url_key FROM revisits r JOIN urls u ON u.id = r.url_id
             WHERE u.url_key = ANY($1::uuid[]) ORDER BY r.url_id FOR UPDATE OF r
           )
           UPDATE revisits r SET due_at = d.due,
             rate = CASE WHEN d.set_rate THEN d.rate ELSE r.rate END
           FROM l JOIN unnest($1::uuid[], $2::bigint[], $3::bool[], $4::float8[])
             AS d(k, due, set_rate, rate) ON d.k = l.url_key
           WHERE r.url_id = l.url_id
           RETURNING d.k::text AS url`,
          [
            keys,
            folded.map((s) => s.dueAt),
            folded.map((s) => s.rate !== undefined),
            folded.map((s) => s.rate ?? null),
          ],
        );
        return new Set(rows.map((r) => r.url.replaceAll('-', '')));
      });
      // A URL listed twice counts twice, as the SQLite store counts it.
      return items.filter((it) => set.has(urlKey(it.url))).length;
    },

    async claimDue(n, options) {
      const { now, lease } = checkClaimDue(n, options);
      const due = await db.tx('claimDue', async (q) => {
        if (lease !== undefined) {
          // KEY SHARE: closeLease (which deletes the row) waits for this claim, a
          // renewal does not.
          const open = await q('SELECT 1 FROM leases WHERE id = $1 FOR KEY SHARE', [lease]);
          if (open.length === 0) throw leaseLostError('claimDue', lease);
        }
        return q<DueRow>(
          `WITH due AS (
             SELECT r.url_id FROM revisits r JOIN pages p ON p.url_id = r.url_id
             WHERE r.due_at IS NOT NULL AND r.claimed = 0 AND r.due_at <= $1
             ORDER BY r.due_at, r.url_id LIMIT $2
             FOR UPDATE OF r SKIP LOCKED
           )
           UPDATE revisits r SET claimed = 1, lease_id = $3
           FROM due JOIN urls u ON u.id = due.url_id JOIN pages p ON p.url_id = due.url_id
           WHERE r.url_id = due.url_id
           RETURNING u.id, u.url, u.depth, r.due_at AS "dueAt",
             coalesce(r.etag, p.etag) AS etag,
             coalesce(r.last_modified, p.last_modified) AS "lastModified",
             p.content_hash AS "contentHash", p.text_hash AS "textHash", r.visits, r.changes,
             r.last_visit_at AS "lastVisitAt", r.rate`,
          [now, n, lease ?? null],
        );
      });
      return due
        .map((d) => ({
          id: d.id,
          url: d.url,
          depth: d.depth,
          dueAt: d.dueAt,
          etag: d.etag,
          lastModified: d.lastModified,
          contentHash: d.contentHash,
          textHash: d.textHash,
          visits: d.visits,
          changes: d.changes,
          lastVisitAt: d.lastVisitAt,
          rate: d.rate,
        }))
        .sort(byDue);
    },

    async recordVisits(all, options) {
      checkVisits('recordVisits', all);
      const lease = checkCommitOptions('recordVisits options', options);
      // Compression is not the database's work: done before the transaction. Bodies
      // outside the database are written then too, for the visits it is to record.
      const toWrite = place.inTransaction
        ? all
        : await db.read('recordVisits', (q) => visitsToRecord(q, all, lease));
      const packed = await packVisitBodies(toWrite, place);
      return db.tx('recordVisits', (q, t) => recordVisitsTx(q, t, all, lease, packed, place));
    },

    async releaseDue(urls, options) {
      checkUrlList('releaseDue', urls);
      const lease = checkCommitOptions('releaseDue options', options);
      if (urls.length === 0) return 0;
      const rows = await db.tx('releaseDue', (q) =>
        q(
          `WITH l AS (
             SELECT r.url_id FROM revisits r JOIN urls u ON u.id = r.url_id
             WHERE u.url_key = ANY($1::uuid[]) AND r.claimed = 1
               AND ($2::bigint IS NULL OR r.lease_id = $2)
             ORDER BY r.url_id FOR UPDATE OF r
           )
           UPDATE revisits r SET claimed = 0, lease_id = NULL
           FROM l WHERE r.url_id = l.url_id
           RETURNING r.url_id`,
          [[...new Set(urls)].map(urlKey), lease ?? null],
        ),
      );
      return rows.length;
    },

    async *revisits() {
      for await (const r of db.stream<RevisitRow>(
        'revisits',
        `SELECT u.url, r.visits, r.changes, r.last_visit_at AS "lastVisitAt",
           r.last_change_at AS "lastChangeAt", r.etag, r.last_modified AS "lastModified",
           r.rate, r.due_at AS "dueAt", r.gone_at AS "goneAt", r.claimed
         FROM revisits r JOIN urls u ON u.id = r.url_id ORDER BY r.url_id`,
      )) {
        yield {
          url: r.url,
          visits: r.visits,
          changes: r.changes,
          lastVisitAt: r.lastVisitAt,
          lastChangeAt: r.lastChangeAt,
          etag: r.etag,
          lastModified: r.lastModified,
          rate: r.rate,
          dueAt: r.dueAt,
          goneAt: r.goneAt,
          claimed: r.claimed === 1,
        };
      }
    },

    async *visits(url) {
      for await (const r of db.stream<VisitRow>(
        'visits',
        `SELECT u.url, v.at, v.status, v.change, v.content_hash AS "contentHash",
           v.text_hash AS "textHash", v.last_modified AS "lastModifiedMs", v.error,
           v.body_file AS "bodyFile"
         FROM visits v JOIN urls u ON u.id = v.url_id
         WHERE $1::uuid IS NULL OR u.url_key = $1 ORDER BY v.id`,
        [url === undefined ? null : urlKey(url)],
      )) {
        yield {
          url: r.url,
          at: r.at,
          status: r.status,
          change: VISIT_CHANGES[r.change] as VisitChange,
          contentHash: r.contentHash,
          textHash: r.textHash,
          lastModifiedMs: r.lastModifiedMs,
          error: r.error,
          bodyFile: r.bodyFile,
        };
      }
    },

    async readVersion(url, at) {
      return db.read('readVersion', async (q) => {
        const [row] = await q<{ body_file: string | null }>(
          `SELECT v.body_file FROM visits v JOIN urls u ON u.id = v.url_id
           WHERE u.url_key = $1 AND v.at = $2 ORDER BY v.id DESC LIMIT 1`,
          [urlKey(url), at],
        );
        const name = row?.body_file;
        return name == null ? null : getBody(place, name, q);
      });
    },

    async revisitTotals(now = Date.now()) {
      return db.read('revisitTotals', async (q) => {
        const [t] = await q<Omit<RevisitTotals, 'visits'> & Record<string, unknown>>(
          `SELECT count(*) AS tracked, count(due_at) AS scheduled,
             count(*) FILTER (WHERE due_at <= $1) AS due, min(due_at) AS "nextDueAt",
             count(gone_at) AS gone
           FROM revisits`,
          [now],
        );
        const visits: Record<VisitChange, number> = {
          unchanged: 0,
          changed: 0,
          gone: 0,
          failed: 0,
        };
        for (const r of await q<{ change: number; n: number }>(
          'SELECT change, count(*) AS n FROM visits GROUP BY change',
        ))
          visits[VISIT_CHANGES[r.change] as VisitChange] = r.n;
        const tt = t as Omit<RevisitTotals, 'visits'>;
        return {
          tracked: tt.tracked,
          scheduled: tt.scheduled,
          due: tt.due,
          nextDueAt: tt.nextDueAt,
          visits,
          gone: tt.gone,
        };
      });
    },
  };
}
