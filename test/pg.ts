// A throwaway PostgreSQL cluster for tests: initdb into a temporary directory, started
// on a free port of 127.0.0.1 (fsync off), stopped and removed at the end. PostgreSQL
// refuses to run as root: as root the directory belongs to the `postgres` user (made
// by Debian's package) and initdb and pg_ctl run through `runuser -u postgres --`.
//
//   const pg = await startPg();            // throws with the reason when it cannot
//   await pg.createDatabase('t');
//   await pg.psql('t', ['-f', file]);      // ON_ERROR_STOP: a failed statement throws
//   const rows = await pg.queryJson('t', 'SELECT ...');
//   await pg.stop();
//
// `pgSkipReason()` tells a test to skip when no PostgreSQL is installed, except under
// CI (CI set), where the test must run: .ci/run installs Debian's postgresql.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The folder holding initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/N/bin. */
export function findPgBin(): string | undefined {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir !== '' && has(dir)) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (has(join(root, v, 'bin'))) return join(root, v, 'bin');
  return undefined;
}

const MISSING =
  'no PostgreSQL binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin: install PostgreSQL (Debian: apt-get install postgresql; .ci/run does)';

/**
 * Why a PostgreSQL test should be skipped, or false to run it: false when PostgreSQL
 * is installed, and under CI whatever (`startPg` then fails with the reason).
 */
export function pgSkipReason(): string | false {
  if (findPgBin() !== undefined || process.env['CI']) return false;
  return MISSING;
}

export interface PgCluster {
  readonly port: number;
  /** The cluster's directory (data in `data/`, the socket, the log). */
  readonly dir: string;
  /** Runs psql on `database` as user postgres with ON_ERROR_STOP; resolves to its output. */
  psql(database: string, args: readonly string[]): Promise<string>;
  createDatabase(name: string): Promise<void>;
  /** The rows of a query as JSON (through `json_agg`), [] when none. */
  queryJson<T = Record<string, unknown>>(database: string, sql: string): Promise<T[]>;
  /** Stops the server and removes the directory. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** uid and gid of a user. */
async function idOf(user: string): Promise<{ uid: number; gid: number }> {
  const uid = Number((await run('id', ['-u', user])).stdout.trim());
  const gid = Number((await run('id', ['-g', user])).stdout.trim());
  return { uid, gid };
}

/**
 * Starts a new cluster; throws with what went wrong (the server log included).
 * Without `fsync`, durability is off (fsync, synchronous_commit, full_page_writes).
 */
export async function startPg(options: { fsync?: boolean } = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (bin === undefined) throw new Error(MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await idOf('postgres').catch(() => {
      rmSync(dir, { recursive: true, force: true });
      throw new Error('running as root, but there is no postgres user to run PostgreSQL as');
    });
    chownSync(dir, uid, gid);
  }
  // As root: through runuser, as the postgres user.
  const pgTool = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args])
      : run(join(bin, tool), args);
  const port = await freePort();
  let started = false;
  try {
    await pgTool('initdb', [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '-N',
    ]);
    const server = [
      '-c listen_addresses=127.0.0.1',
      `-p ${port}`,
      `-k ${dir}`,
      // Tests need no durability; benchmarks measure with it (fsync: true).
      ...(options.fsync
        ? []
        : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
      '-c max_connections=200',
    ].join(' ');
    await pgTool('pg_ctl', ['-D', data, '-l', log, '-o', server, '-w', '-t', '60', 'start']);
    started = true;
  } catch (e) {
    const detail = existsSync(log) ? (await run('tail', ['-n', '20', log])).stdout : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(e as Error).message}\n${detail}`);
  }
  const psqlBin = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  const psql = async (database: string, args: readonly string[]) => {
    const base = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port)];
    const { stdout } = await run(psqlBin, [...base, '-U', 'postgres', '-d', database, ...args], {
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, PGTZ: 'UTC', PGCLIENTENCODING: 'UTF8' },
    });
    return stdout;
  };
  return {
    port,
    dir,
    psql,
    async createDatabase(name) {
      await psql('postgres', ['-c', `CREATE DATABASE "${name.replaceAll('"', '""')}"`]);
    },
    async queryJson<T>(database: string, sql: string) {
      const out = await psql(database, [
        '-At',
        '-c',
        `SELECT coalesce(json_agg(q), '[]') FROM (${sql}) q`,
      ]);
      return JSON.parse(out) as T[];
    },
    async stop() {
      try {
        if (started) await pgTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
