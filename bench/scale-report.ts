// The tables bench/scale.ts prints (Markdown, as BENCHMARKS.md shows them).
import type { RelationSize, TableChanges } from './scale-pg.js';
import type { PhaseFigures, StoreResults } from './scale-store.js';

export const fmt = (x: number, digits = 0): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
}

/** "p50 / p99" of latencies, ms. */
function lat(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  return s.length === 0 ? '–' : `${fmt(pct(s, 50), 1)} / ${fmt(pct(s, 99), 1)}`;
}

const per = (x: number | undefined, n: number, digits = 2) =>
  x === undefined || n === 0 ? '–' : fmt(x / n, digits);

export function printStore(r: StoreResults, batch: number): void {
  const rows: [string, PhaseFigures][] = [
    ['SQLite', r.sqlite.mixed],
    ...r.pg.map((p): [string, PhaseFigures] => ['PostgreSQL', p.mixed]),
  ];
  console.log(
    `\n### The store alone: claim ${batch} + commit ${batch}, again and again\n\n` +
      '| store | clients | pages/s | claims/s | commits/s | claim ms p50 / p99 | commit ms p50 / p99 | server CPU ms/page | clients CPU ms/page | WAL KiB/page: records + full pages | load |\n' +
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const [store, f] of rows) {
    const wal =
      f.walBytes === undefined
        ? '–'
        : f.walImageBytes === undefined
          ? per(f.walBytes / 1024, f.committed)
          : `${per((f.walBytes - f.walImageBytes) / 1024, f.committed)} + ${per(f.walImageBytes / 1024, f.committed)}`;
    console.log(
      `| ${store} | ${f.clients} | ${fmt(f.committed / f.seconds)} | ${fmt(f.claims / f.seconds)} | ${fmt(f.commits / f.seconds)} | ${lat(f.claimMs)} | ${lat(f.commitMs)} | ${per(f.serverCpuMs, f.committed)} | ${per(f.clientCpuMs, f.committed)} | ${wal} | ${fmt(f.load, 1)} |`,
    );
  }
  console.log(
    `\n### Claims alone, then commits alone (of the URLs claimed)\n\n` +
      '| store | clients | claims/s | URLs claimed/s | claim ms p50 / p99 | server CPU ms/claim | commits/s | pages committed/s | commit ms p50 / p99 | server CPU ms/page |\n' +
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const apart: [string, PhaseFigures, PhaseFigures][] = [
    ['SQLite', r.sqlite.claim, r.sqlite.commit],
    ...r.pg.map((p): [string, PhaseFigures, PhaseFigures] => ['PostgreSQL', p.claim, p.commit]),
  ];
  for (const [store, c, m] of apart) {
    console.log(
      `| ${store} | ${c.clients} | ${fmt(c.claims / c.seconds)} | ${fmt(c.claimed / c.seconds)} | ${lat(c.claimMs)} | ${per(c.serverCpuMs, c.claims)} | ${fmt(m.commits / m.seconds)} | ${fmt(m.committed / m.seconds)} | ${lat(m.commitMs)} | ${per(m.serverCpuMs, m.committed)} |`,
    );
  }
  printWaits(r);
  printChanges(
    `mixed, ${r.changes.clients} clients, ${fmt(r.changes.pages)} pages`,
    r.changes.tables,
    r.changes.pages,
  );
}

/** What the sessions in a transaction waited on, grouped by kind (the top event named). */
function printWaits(r: StoreResults): void {
  const kinds = ['CPU', 'Client', 'Lock', 'LWLock', 'IO', 'other'];
  console.log(
    '\n### What the server sessions did in the mixed phase (pg_stat_activity every 50 ms)\n\n' +
      `| clients | sessions in a transaction, mean | ${kinds.join(' | ')} | top wait | rollbacks | deadlocks |\n|---:|---:|${kinds.map(() => '---:').join('|')}|---|---:|---:|`,
  );
  for (const p of r.pg) {
    const w = p.mixed.waits;
    if (w === undefined) continue;
    const by = new Map<string, number>();
    for (const [k, v] of Object.entries(w.shares)) {
      const kind = k === 'CPU' ? 'CPU' : (k.split(':')[0] ?? '');
      const g = kinds.includes(kind) ? kind : 'other';
      by.set(g, (by.get(g) ?? 0) + v);
    }
    const top = Object.entries(w.shares).find(([k]) => k !== 'CPU');
    console.log(
      `| ${p.mixed.clients} | ${fmt(w.mean, 2)} | ${kinds.map((k) => `${fmt(100 * (by.get(k) ?? 0))}%`).join(' | ')} | ${top ? `${top[0]} ${fmt(100 * top[1])}%` : '–'} | ${p.mixed.rollbacks ?? '–'} | ${p.mixed.deadlocks ?? '–'} |`,
    );
  }
}

export function printChanges(title: string, tables: TableChanges[], pages: number): void {
  console.log(
    `\n### Rows per page (${title})\n\n` +
      '| table | inserted | updated | of which HOT | read by scans | read through indexes | dead rows left | autovacuums |\n|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const t of tables) {
    const n = (k: keyof TableChanges) => Number(t[k]);
    if (n('inserted') + n('updated') + n('seqRead') + n('indexRead') === 0) continue;
    console.log(
      `| ${t.table} | ${per(n('inserted'), pages)} | ${per(n('updated'), pages)} | ${per(n('hot'), pages)} | ${per(n('seqRead'), pages, 1)} | ${per(n('indexRead'), pages, 1)} | ${fmt(n('dead'))} | ${t.autovacuums} |`,
    );
  }
}

/** Sizes of a store's tables and indexes, bytes per row or entry. */
export function printSizes(title: string, sizes: RelationSize[]): void {
  console.log(
    `\n### ${title}\n\n| relation | on | rows or entries | size | bytes per row or entry | TOAST (bytes per row) |\n|---|---|---:|---:|---:|---:|`,
  );
  let total = 0;
  for (const s of sizes) {
    total += s.bytes + s.toast;
    if (s.rows === 0) continue;
    const toast =
      s.kind === 'table' && s.toast > 0
        ? `${fmt(s.toast / 1024 / 1024, 1)} MiB (${per(s.toast, s.rows, 0)})`
        : '';
    console.log(
      `| ${s.kind === 'index' ? `index ${s.name}` : s.name} | ${s.kind === 'index' ? s.table : ''} | ${fmt(s.rows)} | ${fmt(s.bytes / 1024 / 1024, 2)} MiB | ${per(s.bytes, s.rows, 0)} | ${toast} |`,
    );
  }
  console.log(`\nAll of it (empty relations too): ${fmt(total / 1024 / 1024, 1)} MiB.`);
}
