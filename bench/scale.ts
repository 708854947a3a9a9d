// Many workers on one PostgreSQL (BENCHMARKS.md, "Many workers on PostgreSQL"):
//  1. the store alone: claims and commits of realistic pages by 1 … 16 clients on one
//     PostgreSQL store, each a process with its own pool (bench/scale-store.ts), one
//     client on the SQLite store for reference; the server's CPU and WAL per page;
//  2. whole crawls of the medium test web (many hosts) by 1, 2 and 4 processes on one
//     PostgreSQL store (a `crawl` and workers), against the SQLite crawl, at the default
//     delay and at --delay-ms 0, pages counted in the test web's own request log
//     (bench/scale-crawl.ts);
//  3. the size of each table and index of a crawled store, per row and per entry.
// PostgreSQL is a throwaway cluster on 127.0.0.1 (test/pg.ts) with its durability on
// (fsync, synchronous_commit, full_page_writes) and its defaults otherwise.
//
//   npm run build && node --import tsx bench/scale.ts     # = npm run bench:scale
//     [--clients 1,2,4,8,16] [--seconds 10] [--frontier 200000] [--batch 32] [--resend 3]
//     [--workers 1,2,4] [--delays 1000,0] [--size medium] [--window-s 600] [--one-by-one]
//     [--skip-store] [--skip-crawl]
import { parseArgs } from 'node:util';
import { startPg } from '../test/pg.js';
import { crawls, printCrawls } from './scale-crawl.js';
import { relationSizes } from './scale-pg.js';
import { fmt, printChanges, printSizes, printStore } from './scale-report.js';
import { storeAlone } from './scale-store.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1,2,4,8,16' },
    seconds: { type: 'string', default: '10' },
    frontier: { type: 'string', default: '200000' },
    batch: { type: 'string', default: '32' },
    resend: { type: 'string', default: '3' },
    workers: { type: 'string', default: '1,2,4' },
    delays: { type: 'string', default: '1000,0' },
    size: { type: 'string', default: 'medium' },
    'skip-store': { type: 'boolean', default: false },
    'skip-crawl': { type: 'boolean', default: false },
    'one-by-one': { type: 'boolean', default: false },
    'window-s': { type: 'string', default: '600' },
  },
});
const list = (s: string) => s.split(',').map(Number);
const size = values.size as 'small' | 'medium' | 'large';
const batch = Number(values.batch);

const pg = await startPg({ fsync: true });
try {
  let storePeak = 0;
  if (!values['skip-store']) {
    const r = await storeAlone(pg, {
      clients: list(values.clients),
      seconds: Number(values.seconds),
      frontier: Number(values.frontier),
      batch,
      resend: Number(values.resend),
    });
    printStore(r, batch);
    storePeak = Math.max(...r.pg.map((p) => p.mixed.committed / p.mixed.seconds));
  }
  if (!values['skip-crawl']) {
    const r = await crawls(pg, {
      workers: list(values.workers),
      delays: list(values.delays),
      size,
      oneByOne: values['one-by-one'],
      windowS: Number(values['window-s']),
    });
    printCrawls(r);
    if (r.changes !== undefined) printChanges(r.changes.title, r.changes.tables, r.changes.pages);
    if (r.sizes !== undefined) printSizes(r.sizes.title, r.sizes.sizes);
    if (storePeak > 0) {
      for (const d of r.byDelay) {
        const one = d.runs.find((x) => x.store === 'PostgreSQL' && x.processes === 1);
        if (one === undefined) continue;
        const rate = one.pages / one.seconds;
        console.log(
          `\nThe store alone at its best (${fmt(storePeak)} pages/s) against one worker at --delay-ms ${d.delayMs} (${fmt(rate, 1)} pages/s): ${fmt(storePeak / rate, 1)}×.`,
        );
      }
    }
  } else if (!values['skip-store']) {
    // No crawl to measure sizes on: the sizes of a store filled as the clients fill one.
    printSizes('Sizes of the filled frontier', await relationSizes(pg, 'scale_template', 'bench'));
  }
} finally {
  await pg.stop();
}
