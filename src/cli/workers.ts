/**
 * The runs at work on a store (its open leases: one per crawl, watch or worker
 * process) with their pace (pages fetched, and pages per second over their last
 * renewal interval: crawl/run-pace.ts) and, for a PostgreSQL store, the database's
 * health and where the bodies live, for `status`.
 */
import { LEASE_MS } from '../crawl/index.js';
import { readPaces } from '../crawl/run-pace.js';
import { type Lease, PgStore, type Store } from '../store/index.js';
import { formatCount } from '../util/units.js';

export interface WorkerRow {
  host: string;
  pid: number;
  startedAt: number;
  /** When the run last renewed its lease (its last sign of life). */
  lastSeenAt: number;
  /** Its lease has expired: the run is gone or stalled; its claims go back at the next recovery. */
  expired: boolean;
  /** Pages it has fetched, as of its last renewal; absent before its first. */
  pages?: number;
  /** Pages per second over its last renewal interval (15 s); absent before its first renewal. */
  pagesPerSecond?: number;
}

export interface DatabaseHealth {
  server: string;
  schemaBytes: number;
  connections: number;
  deadRows: number;
  /** Where the bodies live: `database`, `file:///…` or `s3://…`. */
  bodies: string;
}

export interface WorkersStatus {
  workers: WorkerRow[];
  database?: DatabaseHealth;
}

export async function gatherWorkers(store: Store, now = Date.now()): Promise<WorkersStatus> {
  const paces = await readPaces(store);
  const workers = (await store.leases()).map((l: Lease): WorkerRow => {
    const pace = paces.get(l.id);
    return {
      host: l.host,
      pid: l.pid,
      startedAt: l.startedAt,
      lastSeenAt: Math.min(now, l.expiresAt - LEASE_MS),
      expired: l.expiresAt < now,
      ...(pace?.pagesPerSecond != null
        ? { pages: pace.pages, pagesPerSecond: pace.pagesPerSecond }
        : {}),
    };
  });
  if (!(store instanceof PgStore)) return { workers };
  return { workers, database: { ...(await store.health()), bodies: store.bodies } };
}

/** `, 1,234 pages, 4.2 pages/s` (over the last renewal interval), when known. */
const pace = (r: WorkerRow) =>
  r.pagesPerSecond === undefined
    ? ''
    : `, ${formatCount(r.pages ?? 0)} pages, ${formatCount(r.pagesPerSecond, 1)} pages/s`;

const ago = (ms: number) =>
  ms < 90_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;

export function formatWorkers(w: WorkersStatus, now = Date.now()): string {
  const lines: string[] = [];
  if (w.workers.length > 0) {
    lines.push(`Runs at work    ${w.workers.length}`);
    for (const r of w.workers) {
      lines.push(
        `  ${r.host} pid ${r.pid}: started ${ago(now - r.startedAt)} ago, last seen ${ago(now - r.lastSeenAt)} ago${pace(r)}${r.expired ? ' (lease expired: gone or stalled)' : ''}`,
      );
    }
  }
  if (w.database !== undefined) {
    const d = w.database;
    lines.push(
      `Database        PostgreSQL ${d.server}: ${(d.schemaBytes / 1048576).toFixed(1)} MiB in the store's schema, ${d.connections} connections, ${d.deadRows} dead rows awaiting vacuum; bodies in ${d.bodies === 'database' ? 'the database' : d.bodies}`,
    );
  }
  return lines.join('\n');
}
