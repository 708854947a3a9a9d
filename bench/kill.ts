// Killed at random moments (BENCHMARKS.md): `focuscrawl crawl` and `focuscrawl watch`
// killed with SIGKILL at seeded random moments, the same command run again after each
// kill, until it ends by itself.
//  1. crawl: the small test web's portal, every topical host and moved.test (redirects;
//     every topical host serves robots.txt), threshold 0, --delay-ms 5, a page budget.
//     A crawl never killed first, into its own store (its timings place the kills:
//     at startup, while fetching, while ranking at the end); then the killed one,
//     compared with it URL by URL (the same URLs in the same states, links, ranked and
//     indexed pages; the test web's print views and session URLs aside, which depend on
//     the order of fetches killed or not) and with the test web's ground truth (every
//     kept page's out-links known, moved.test's redirects), no page requested again
//     once recorded (the test web's request log; redirect hops counted apart).
//  2. watch: news.test on a clock running a simulated day per second, killed at startup
//     and during its revisit rounds; nothing lost, no visit recorded twice (never more
//     answered visits than requests), the visit history equal to the revisit records.
// After every kill: the store's invariants and `focuscrawl check --store DIR` (in a
// child process), which may find only the leftovers of writes the kill cut short.
//
//   node --import tsx bench/kill.ts     # = npm run bench:kill
//     [--kills 20] [--watch-kills 20] [--seed 1] [--size small] [--max-pages 5000]
//     [--delay-ms 5] [--watch-duration-s 15] [--watch-budget 50/s] [--out SECTION.md] [--keep]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startTestWeb, type WebSize } from '../src/testweb/index.js';
import { seededRandom } from '../src/util/index.js';
import { type CrawlKillResult, killCrawl } from './kill-crawl.js';
import type { KillRecord } from './kill-run.js';
import { killWatch, type WatchKillResult } from './kill-watch.js';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '20' },
    'watch-kills': { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    size: { type: 'string', default: 'small' },
    'max-pages': { type: 'string', default: '5000' },
    'delay-ms': { type: 'string', default: '5' },
    'watch-duration-s': { type: 'string', default: '15' },
    'watch-budget': { type: 'string', default: '50/s' },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${readFileSync(import.meta.filename, 'utf8').split('\nimport')[0]}\n`);
  process.exit(0);
}
const whole = (flag: keyof typeof values, min: number): number => {
  const v = Number(values[flag]);
  if (!Number.isInteger(v) || v < min) throw new Error(`--${flag}: a whole number ≥ ${min}`);
  return v;
};
const kills = whole('kills', 1);
const watchKills = whole('watch-kills', 0);
const seed = whole('seed', 0);
const maxPages = whole('max-pages', 1);
const delayMs = whole('delay-ms', 0);
const durationS = whole('watch-duration-s', 2);
const size = values.size as WebSize;

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-kill-'));
const say = (s: string) => process.stdout.write(`${s}\n`);
const web = await startTestWeb({ port: 0, seed: 1, size, clockSpeed: 86_400 });
const t0 = Date.now();
let crawlR: CrawlKillResult;
let watchR: WatchKillResult | undefined;
try {
  say(`crawl: ${kills} kills, seed ${seed}`);
  crawlR = await killCrawl(
    {
      web,
      root,
      kills,
      shape: 'hosts',
      maxPages,
      delayMs,
      checkCli: true,
      log: (l) => say(`  ${l}`),
    },
    seededRandom(seed),
  );
  if (watchKills > 0) {
    say(`watch: ${watchKills} kills, seed ${seed}`);
    watchR = await killWatch(
      {
        web,
        root,
        kills: watchKills,
        durationS,
        windowMs: 3000,
        startupMs: crawlR.reference.startupMs,
        budget: values['watch-budget'],
        checkCli: true,
        log: (l) => say(`  ${l}`),
      },
      seededRandom(seed + 1),
    );
  }
} finally {
  await web.close();
  if (values.keep) say(`stores kept in ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
const totalS = (Date.now() - t0) / 1000;

const byPhase = (rs: readonly KillRecord[]) => {
  const m = new Map<string, number>();
  for (const r of rs) if (r.killed) m.set(r.kill.phase, (m.get(r.kill.phase) ?? 0) + 1);
  return [...m]
    .map(
      ([p, n]) =>
        `${n} ${p === 'final' ? 'while ranking' : p === 'crawl' ? 'while fetching' : p === 'revisits' ? 'during revisits' : 'at startup'}`,
    )
    .join(', ');
};
const s = (ms: number) => (ms / 1000).toFixed(1);
const c = crawlR.final.counts;
const rc = crawlR.reference.snapshot.counts;
const states = (x: typeof c) =>
  `${x.complete} kept, ${x.discard} discarded, ${x.error} failed, ${x.redirect} redirects, ${x.waiting} waiting`;
const rows: [string, string, string][] = [
  ['', 'crawl', 'watch'],
  [
    'kills (of runs cut short by one)',
    `${crawlR.records.filter((r) => r.killed).length} of ${crawlR.records.length}: ${byPhase(crawlR.records)}`,
    watchR === undefined
      ? '—'
      : `${watchR.records.filter((r) => r.killed).length} of ${watchR.records.length}: ${byPhase(watchR.records)}`,
  ],
  [
    'runs to the end after the kills',
    String(crawlR.resumes),
    watchR === undefined ? '—' : String(watchR.resumes),
  ],
  [
    'time (killed runs, resumes, checks)',
    `${s(crawlR.ms)} s (never killed: ${s(crawlR.reference.ms)} s)`,
    watchR === undefined ? '—' : `${s(watchR.ms)} s`,
  ],
  [
    'store at the end',
    `${crawlR.final.states.size} URLs: ${states(c)}`,
    watchR === undefined
      ? '—'
      : `${watchR.final.states.size} URLs, ${watchR.final.visits.length} visits of ${watchR.final.revisits.size} pages`,
  ],
  ['never killed', `${crawlR.reference.snapshot.states.size} URLs: ${states(rc)}`, '—'],
  ['pages requested again after a kill (fetched, not recorded)', String(crawlR.refetched), '—'],
  ['redirect hops to pages finished before, requested again', String(crawlR.hopsAgain.length), '—'],
  [
    'pages a summary counted that the store dropped (runs that ended)',
    String(crawlR.overcounted),
    '—',
  ],
  [
    'check after a kill: leftovers of cut writes',
    String(crawlR.leftovers),
    watchR === undefined ? '—' : String(watchR.leftovers),
  ],
  [
    'discrepancies',
    crawlR.problems.length === 0 ? 'none' : crawlR.problems.slice(0, 5).join('; '),
    watchR === undefined
      ? '—'
      : watchR.problems.length === 0
        ? 'none'
        : watchR.problems.slice(0, 5).join('; '),
  ],
];
const table = rows.map((r) => `| ${r.join(' | ')} |`);
table.splice(1, 0, '| --- | --- | --- |');
for (const p of crawlR.problems) say(`crawl discrepancy: ${p}`);
for (const p of watchR?.problems ?? []) say(`watch discrepancy: ${p}`);
if (crawlR.hopsAgain.length > 0)
  say(`redirect hops requested again: ${crawlR.hopsAgain.join(' ')}`);
say('');
say(table.join('\n'));
say(`\ntotal ${totalS.toFixed(0)} s`);

if (values.out !== undefined) {
  const section = [
    '## Killed at random moments (`bench/kill.ts`)',
    '',
    '```sh',
    `node --import tsx bench/kill.ts --kills ${kills} --watch-kills ${watchKills} --seed ${seed} --max-pages ${maxPages} --delay-ms ${delayMs} --watch-duration-s ${durationS} --watch-budget ${values['watch-budget']}   # = npm run bench:kill`,
    '```',
    '',
    ...table,
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; ${totalS.toFixed(0)} s in all.`,
    '',
  ].join('\n');
  writeFileSync(values.out, section);
  say(`section written to ${values.out}`);
}
