// The store alone (bench/scale.ts, part 1): claims and commits of realistic pages by
// 1 … 16 clients on one PostgreSQL store, each client a process of its own with its
// own pool (bench/scale-client.ts), as workers are; one client on the SQLite store for
// reference. Every run starts from a copy of one filled store: a PostgreSQL database
// made from a template, a copy of a SQLite directory.
import { type ChildProcess, fork } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectStore } from '../src/store/index.js';
import type { PgCluster } from '../test/pg.js';
import type { Phase, PhaseResult } from './scale-client.js';
import { BODY_BYTES, BODY_GZ_BYTES, FILL_BASE, urlOf } from './scale-pages.js';
import {
  databaseActivity,
  sampleWaits,
  serverCpuMs,
  type TableChanges,
  tableChanges,
  type Waits,
  walImageBytes,
  walLsn,
} from './scale-pg.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const SCHEMA = 'bench';
const TEMPLATE = 'scale_template';

export interface StoreOptions {
  clients: number[];
  seconds: number;
  frontier: number;
  batch: number;
  /** Known URLs each page sends again (bench/scale-pages.ts). */
  resend: number;
}

/** A phase's figures over all clients. */
export interface PhaseFigures {
  clients: number;
  seconds: number;
  claims: number;
  claimed: number;
  commits: number;
  committed: number;
  claimMs: number[];
  commitMs: number[];
  clientCpuMs: number;
  serverCpuMs?: number;
  walBytes?: number;
  walImageBytes?: number;
  waits?: Waits;
  /** The database's transactions rolled back and deadlocks over the phase's run (mixed only). */
  rollbacks?: number;
  deadlocks?: number;
  load: number;
}

export interface StoreResults {
  sqlite: { mixed: PhaseFigures; claim: PhaseFigures; commit: PhaseFigures };
  pg: { mixed: PhaseFigures; claim: PhaseFigures; commit: PhaseFigures }[];
  /** Row changes per table in the mixed phase of the most clients. */
  changes: { clients: number; pages: number; tables: TableChanges[] };
}

async function fill(location: string, n: number): Promise<void> {
  const store = await connectStore(location, { create: true });
  try {
    for (let i = 0; i < n; i += 2000) {
      await store.addUrls(
        Array.from({ length: Math.min(2000, n - i) }, (_, j) => ({
          url: urlOf(FILL_BASE + i + j),
          depth: 1,
          priority: ((i + j) * 31) % 1000,
        })),
      );
    }
  } finally {
    await store.close();
  }
}

/** The clients of one store, each in its own process. */
class Clients {
  readonly #children: ChildProcess[] = [];
  readonly #waiting = new Map<ChildProcess, (m: unknown) => void>();

  static async start(location: string, n: number, o: StoreOptions): Promise<Clients> {
    const c = new Clients();
    const ready = Array.from({ length: n }, (_, i) => {
      const child = fork(
        join(here, 'scale-client.ts'),
        [location, String(i), String(n), String(o.batch), String(o.resend)],
        {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        },
      );
      c.#children.push(child);
      child.on('message', (m) => c.#waiting.get(child)?.(m));
      child.on('exit', (code) => {
        if (code !== 0) c.#waiting.get(child)?.({ type: 'failed', code });
      });
      return c.#next(child);
    });
    await Promise.all(ready);
    return c;
  }

  #next(child: ChildProcess): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#waiting.set(child, (m) => {
        this.#waiting.delete(child);
        if ((m as { type: string }).type === 'failed') reject(new Error('a client failed'));
        else resolve(m);
      });
    });
  }

  /** Runs `phase` on every client over the same window of `seconds`. */
  async run(phase: Phase, seconds: number): Promise<PhaseResult[]> {
    const startAt = Date.now() + 300;
    const done = this.#children.map((ch) => this.#next(ch) as Promise<PhaseResult>);
    for (const ch of this.#children)
      ch.send({ type: 'run', phase, startAt, endAt: startAt + seconds * 1000 });
    const rs = await Promise.all(done);
    return rs.map((r) => ({ ...r, startAt }) as PhaseResult & { startAt: number });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.#children.map(
        (ch) =>
          new Promise<void>((resolve) => {
            if (ch.exitCode !== null) return resolve();
            ch.once('exit', () => resolve());
            ch.send({ type: 'close' });
          }),
      ),
    );
  }
}

function figures(rs: PhaseResult[], startAt: number): PhaseFigures {
  const sum = (f: (r: PhaseResult) => number) => rs.reduce((a, r) => a + f(r), 0);
  return {
    clients: rs.length,
    seconds: (Math.max(...rs.map((r) => r.endedAt)) - startAt) / 1000,
    claims: sum((r) => r.claims),
    claimed: sum((r) => r.claimed),
    commits: sum((r) => r.commits),
    committed: sum((r) => r.committed),
    claimMs: rs.flatMap((r) => r.claimMs),
    commitMs: rs.flatMap((r) => r.commitMs),
    clientCpuMs: sum((r) => r.cpuMs),
    load: loadavg()[0] ?? 0,
  };
}

/** Runs a phase and measures it, the server's CPU and WAL too when given the cluster. */
async function measure(
  clients: Clients,
  phase: Phase,
  seconds: number,
  pg?: { cluster: PgCluster; db: string },
): Promise<PhaseFigures> {
  // From a checkpoint on, as a server's WAL runs after each: the first change of each
  // page then logs the whole page (full_page_writes), counted apart.
  if (pg) await pg.cluster.psql(pg.db, ['-c', 'CHECKPOINT']);
  const cpu0 = pg && serverCpuMs(pg.cluster);
  const wal0 = pg && (await walLsn(pg.cluster, pg.db));
  const sampler = pg && (await sampleWaits(pg.cluster, pg.db));
  const rs = (await clients.run(phase, seconds)) as (PhaseResult & { startAt: number })[];
  const f = figures(rs, rs[0]?.startAt ?? 0);
  if (sampler) f.waits = await sampler.stop();
  if (pg && cpu0 !== undefined && wal0 !== undefined) {
    f.serverCpuMs = serverCpuMs(pg.cluster) - cpu0;
    const wal1 = await walLsn(pg.cluster, pg.db);
    f.walBytes = wal1.at - wal0.at;
    const images = await walImageBytes(pg.cluster, wal0.lsn, wal1.lsn);
    if (images !== undefined) f.walImageBytes = images;
  }
  return f;
}

/** A database copied from the filled template (retried while the template's last session ends). */
async function copyTemplate(pg: PgCluster, db: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await pg.psql('postgres', ['-c', `CREATE DATABASE ${db} TEMPLATE ${TEMPLATE}`]);
      return;
    } catch (e) {
      if (attempt >= 20 || !/being accessed by other users/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export async function storeAlone(pg: PgCluster, o: StoreOptions): Promise<StoreResults> {
  console.error(
    `store alone: frontier of ${o.frontier} URLs, batches of ${o.batch}, ${o.resend} known URLs sent again a page, bodies ${BODY_BYTES} bytes (${BODY_GZ_BYTES} gzipped)`,
  );
  const pgUrl = (db: string, pool = 2) =>
    `postgres://postgres@127.0.0.1:${pg.port}/${db}?schema=${SCHEMA}&pool=${pool}`;
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-scale-'));
  try {
    // SQLite: one client, its phases on copies of one filled directory.
    await fill(join(dir, 'filled'), o.frontier);
    const sqliteRun = async (phases: Phase[], name: string) => {
      cpSync(join(dir, 'filled'), join(dir, name), { recursive: true });
      const c = await Clients.start(join(dir, name), 1, o);
      const out: PhaseFigures[] = [];
      for (const p of phases) out.push(await measure(c, p, o.seconds));
      await c.close();
      return out;
    };
    const [sMixed] = await sqliteRun(['mixed'], 'mixed');
    const [sClaim, sCommit] = await sqliteRun(['claim', 'commit'], 'apart');
    const sqlite = {
      mixed: sMixed as PhaseFigures,
      claim: sClaim as PhaseFigures,
      commit: sCommit as PhaseFigures,
    };
    console.error(`  SQLite: ${Math.round(sqlite.mixed.committed / sqlite.mixed.seconds)} pages/s`);

    await pg.createDatabase(TEMPLATE);
    await fill(pgUrl(TEMPLATE), o.frontier);
    const results: StoreResults['pg'] = [];
    let changes: StoreResults['changes'] = { clients: 0, pages: 0, tables: [] };
    for (const n of o.clients) {
      // The mixed phase on a fresh copy, alone, so that the copy's statistics are its own.
      const dbMixed = `scale_${n}_mixed`;
      await copyTemplate(pg, dbMixed);
      let c = await Clients.start(pgUrl(dbMixed), n, o);
      const mixed = await measure(c, 'mixed', o.seconds, { cluster: pg, db: dbMixed });
      await c.close();
      const activity = await databaseActivity(pg, dbMixed);
      mixed.rollbacks = activity.rollbacks;
      mixed.deadlocks = activity.deadlocks;
      if (n >= changes.clients) {
        // The sessions have ended: their statistics are flushed.
        const tables = await tableChanges(pg, dbMixed, SCHEMA);
        changes = { clients: n, pages: mixed.committed, tables };
      }
      await pg.psql('postgres', ['-c', `DROP DATABASE ${dbMixed}`]);
      // Claims alone, then commits alone of the URLs claimed, on another copy.
      const dbApart = `scale_${n}_apart`;
      await copyTemplate(pg, dbApart);
      c = await Clients.start(pgUrl(dbApart), n, o);
      const claim = await measure(c, 'claim', o.seconds, { cluster: pg, db: dbApart });
      const commit = await measure(c, 'commit', o.seconds, { cluster: pg, db: dbApart });
      await c.close();
      await pg.psql('postgres', ['-c', `DROP DATABASE ${dbApart}`]);
      results.push({ mixed, claim, commit });
      console.error(
        `  PostgreSQL, ${n} clients: ${Math.round(mixed.committed / mixed.seconds)} pages/s (load ${mixed.load.toFixed(1)})`,
      );
    }
    return { sqlite, pg: results, changes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
