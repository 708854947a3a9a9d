// What bench/scale.ts reads off its PostgreSQL cluster: the server's CPU time (every
// process of the cluster, those gone included), the WAL written and how much of it
// is full-page images, the row changes per table, and the size of each table and
// index of a store with its row counts.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Pg from 'pg';
import { findPgBin, type PgCluster } from '../test/pg.js';

const run = promisify(execFile);

/** Clock ticks per second of /proc's CPU times (Linux's USER_HZ). */
const TICKS = 100;

/** Fields 14–17 of /proc/PID/stat: utime, stime, cutime, cstime (ticks); ppid is field 4. */
function stat(pid: number): { ppid: number; own: number; children: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command may hold spaces and parentheses: fields start after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const n = (i: number) => Number(f[i - 3]);
    return { ppid: n(4), own: n(14) + n(15), children: n(16) + n(17) };
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * CPU time the cluster has used so far, ms: the postmaster's own, its live children's
 * (backends, autovacuum, checkpointer, WAL writer) and those of its children that
 * have exited (counted in the postmaster's `cutime`/`cstime` once reaped).
 */
export function serverCpuMs(pg: PgCluster): number {
  const master = Number(
    readFileSync(join(pg.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  const m = stat(master);
  if (m === undefined) throw new Error(`no postmaster ${master}`);
  let ticks = m.own + m.children;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s?.ppid === master) ticks += s.own;
  }
  return (ticks * 1000) / TICKS;
}

/** The current WAL position, as a number of bytes. */
export async function walLsn(pg: PgCluster, db: string): Promise<{ lsn: string; at: number }> {
  const [r] = await pg.queryJson<{ lsn: string; at: string }>(
    db,
    `SELECT pg_current_wal_lsn()::text AS lsn, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS at`,
  );
  if (r === undefined) throw new Error('no WAL position');
  return { lsn: r.lsn, at: Number(r.at) };
}

/**
 * Bytes of full-page images in the WAL between two positions (pg_waldump --stats),
 * or undefined when pg_waldump cannot tell (not installed, segments recycled).
 */
export async function walImageBytes(
  pg: PgCluster,
  from: string,
  to: string,
): Promise<number | undefined> {
  const bin = findPgBin();
  if (bin === undefined) return undefined;
  // initdb may be a link into the version's own folder, which holds pg_waldump.
  const dir = join(realpathSync(join(bin, 'initdb')), '..');
  try {
    const { stdout } = await run(
      join(dir, 'pg_waldump'),
      ['--stats', '-p', join(pg.dir, 'data', 'pg_wal'), '-s', from, '-e', to],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    // "Total  N  RECORDS [x%]  FPI [y%]  COMBINED [100%]": the FPI column.
    const line = stdout.split('\n').find((l) => l.trim().startsWith('Total'));
    const fpi = Number(line?.trim().split(/\s+/)[4]);
    return Number.isFinite(fpi) ? fpi : undefined;
  } catch {
    return undefined;
  }
}

export interface TableChanges {
  table: string;
  inserted: number;
  updated: number;
  hot: number;
  dead: number;
  autovacuums: number;
  /** Rows read by sequential scans, and through indexes. */
  seqRead: number;
  indexRead: number;
}

/** Row changes per table of `schema` since the database's statistics began. */
export function tableChanges(pg: PgCluster, db: string, schema: string): Promise<TableChanges[]> {
  return pg.queryJson<TableChanges>(
    db,
    `SELECT relname AS "table", n_tup_ins AS inserted, n_tup_upd AS updated,
       n_tup_hot_upd AS hot, n_dead_tup AS dead, autovacuum_count AS autovacuums,
       coalesce(seq_tup_read, 0) AS "seqRead", coalesce(idx_tup_fetch, 0) AS "indexRead"
     FROM pg_stat_user_tables WHERE schemaname = '${schema}' ORDER BY relname`,
  );
}

export interface DatabaseActivity {
  /** Transactions committed and rolled back. */
  transactions: number;
  rollbacks: number;
  deadlocks: number;
  /** Rows the database's queries read (returned by scans) in all. */
  rowsRead: number;
}

/** What a database has done since it was made (its sessions ended: statistics flushed). */
export async function databaseActivity(pg: PgCluster, db: string): Promise<DatabaseActivity> {
  const [r] = await pg.queryJson<Record<string, number>>(
    db,
    `SELECT xact_commit + xact_rollback AS transactions, xact_rollback AS rollbacks, deadlocks,
       tup_returned AS rows_read
     FROM pg_stat_database WHERE datname = current_database()`,
  );
  const n = (k: string) => Number(r?.[k] ?? 0);
  return {
    transactions: n('transactions'),
    rollbacks: n('rollbacks'),
    deadlocks: n('deadlocks'),
    rowsRead: n('rows_read'),
  };
}

export interface RelationSize {
  name: string;
  /** 'table' or 'index'. */
  kind: string;
  /** The table an index is on (the table itself for a table). */
  table: string;
  /** The relation's main fork, bytes. */
  bytes: number;
  /** For a table: with its TOAST and indexes (pg_total_relation_size). */
  total: number;
  /** For a table: its TOAST table's size (out-of-line values such as bodies). */
  toast: number;
  /** Rows of the table (exact), or entries of the index (its table's rows that match). */
  rows: number;
}

/**
 * Every table and index of `schema`, with exact row counts (of the table, or of the
 * rows a partial index holds), after a VACUUM so that the figures hold no dead rows.
 */
export async function relationSizes(
  pg: PgCluster,
  db: string,
  schema: string,
): Promise<RelationSize[]> {
  await pg.psql(db, ['-c', 'VACUUM ANALYZE']);
  const rels = await pg.queryJson<Omit<RelationSize, 'rows'> & { predicate: string | null }>(
    db,
    `SELECT c.relname AS name, CASE c.relkind WHEN 'i' THEN 'index' ELSE 'table' END AS kind,
       coalesce(t.relname, c.relname) AS table, pg_relation_size(c.oid) AS bytes,
       pg_total_relation_size(c.oid) AS total,
       CASE WHEN c.reltoastrelid = 0 THEN 0 ELSE pg_total_relation_size(c.reltoastrelid) END AS toast,
       pg_get_expr(x.indpred, x.indrelid) AS predicate
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_index x ON x.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = x.indrelid
     WHERE n.nspname = '${schema}' AND c.relkind IN ('r', 'i')
     ORDER BY coalesce(t.relname, c.relname), c.relkind DESC, c.relname`,
  );
  const out: RelationSize[] = [];
  for (const r of rels) {
    const where = r.predicate === null ? '' : ` WHERE ${r.predicate}`;
    const [n] = await pg.queryJson<{ n: number }>(
      db,
      `SELECT count(*)::bigint AS n FROM "${schema}"."${r.table}"${where}`,
    );
    out.push({
      name: r.name,
      kind: r.kind,
      table: r.table,
      bytes: Number(r.bytes),
      total: Number(r.total),
      toast: Number(r.toast),
      rows: Number(n?.n ?? 0),
    });
  }
  return out;
}

/** What the client sessions of a database were doing. */
export interface Waits {
  /** Shares of the samples of sessions in a transaction, by what they waited on. */
  shares: Record<string, number>;
  /** Sessions in a transaction, on average. */
  mean: number;
}

/**
 * Samples pg_stat_activity every `everyMs` until stopped: for each client session of
 * `db` inside a statement or transaction, what it waits on (`Lock:transactionid`,
 * `IO:WALSync`, `Client:ClientRead`: the server waits for the client inside a
 * transaction) or `CPU` when it waits on nothing. `stop()` gives the shares.
 */
export async function sampleWaits(
  pg: PgCluster,
  db: string,
  everyMs = 50,
): Promise<{ stop: () => Promise<Waits> }> {
  const client = new Pg.Client({
    host: '127.0.0.1',
    port: pg.port,
    user: 'postgres',
    database: db,
  });
  await client.connect();
  const counts = new Map<string, number>();
  let total = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ w: string }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS w FROM pg_stat_activity
         WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()
           AND state IN ('active', 'idle in transaction')`,
        [db],
      );
      samples++;
      for (const r of rows) {
        counts.set(r.w, (counts.get(r.w) ?? 0) + 1);
        total++;
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      const shares: Record<string, number> = {};
      for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) {
        shares[k] = n / Math.max(1, total);
      }
      return { shares, mean: total / Math.max(1, samples) };
    },
  };
}
