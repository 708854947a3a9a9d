// `npm run demo:jobs` (`focuscrawl demo jobs`): the job-board demo of DESIGN 1.2. Starts
// the test web on 127.0.0.1, crawls jobs.test for programming jobs with a Chinese
// topic, extracts each kept posting's title, company, salary, place, date and the
// description between 职位描述 and 申请这个职位 (examples/jobs-rules.json), checks
// them against the test web's truth, and writes the records as an HTML table and XML.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crawl } from '../../crawl/index.js';
import { exportStore, openFileSink } from '../../export/index.js';
import { parseMoney } from '../../extract/index.js';
import { openStore, type Store } from '../../store/index.js';
import { jobFields, startTestWeb } from '../../testweb/index.js';
import { bool, type FlagSpec, int, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { createProgressReporter } from '../progress.js';
import { withFlagSync } from '../system-errors.js';
import { formatFieldStats } from './fields-text.js';

export const JOBS_HELP = `Usage: focuscrawl demo jobs [--dir DIR] [--pages N] [--quiet]

The job-board demo (DESIGN 1.2): starts the test web on 127.0.0.1, crawls jobs.test
for programming jobs with a Chinese topic into DIR/jobs (a SQLite store), extracts
each kept posting's title, company, salary, place, date and description (the text
between 职位描述 and 申请这个职位) by examples/jobs-rules.json, compares every field
with the test web's truth, and writes DIR/jobs.html (a sortable table) and
DIR/jobs.xml.

  --dir DIR      where the store and the files go (default ./focuscrawl-demo)
  --pages N      page budget (default 400)
  --quiet        no progress lines`;

export const jobsFlags: FlagSpec = {
  dir: { type: 'string' },
  pages: { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** The rules shipped with the package (examples/), from src/ and dist/ alike. */
export const JOBS_RULES = fileURLToPath(
  new URL('../../../examples/jobs-rules.json', import.meta.url),
);

/** Programming jobs, in Chinese: the topic the demo crawls for. */
const TOPIC = {
  name: '程序员招聘',
  keywords: { 开发: 3, 代码: 2, 算法: 2, 计算机: 2, 工程师: 2, 技术: 1, 系统: 1, 数据库: 1 },
  threshold: 0.15,
};

export async function jobsDemo(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('demo jobs', argv, jobsFlags);
  if (bool(p, 'help')) {
    io.out(JOBS_HELP);
    return 0;
  }
  const dir = resolve(str(p, 'dir') ?? 'focuscrawl-demo');
  const budget = int(p, 'pages', 'demo jobs') ?? 400;
  const storeDir = join(dir, 'jobs');
  const topicFile = join(dir, 'jobs-topic.json');
  withFlagSync('--dir', dir, () => {
    for (const sub of ['jobs', 'jobs.html', 'jobs.xml', 'jobs-topic.json'])
      rmSync(join(dir, sub), { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(topicFile, `${JSON.stringify(TOPIC, null, 2)}\n`);
  });
  const web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  try {
    io.out(
      `focuscrawl demo jobs: test web on http://127.0.0.1:${web.port}; topic ${topicFile}; rules ${JOBS_RULES}`,
    );
    io.out(
      `── 1. Crawl jobs.test for programming jobs, extracting fields. The same from the shell:\n   focuscrawl crawl --store ${storeDir} --topic ${topicFile} --seeds http://jobs.test/ --scope same-host --max-pages ${budget} --extract ${JOBS_RULES} --resolve '${web.resolve}' --allow-private --delay-ms 0`,
    );
    const reporter = createProgressReporter({
      mode: bool(p, 'quiet') ? 'quiet' : 'lines',
      write: (s) => io.err(s.replace(/\n$/, '')),
    });
    const run = crawl({
      store: storeDir,
      topic: topicFile,
      seeds: ['http://jobs.test/'],
      scope: 'same-host',
      maxPages: budget,
      sitemaps: 'none',
      extract: JOBS_RULES,
      // The test web is ours and on loopback: no politeness delay needed there.
      fetcher: { resolve: [web.resolve], allowPrivateAddresses: true, delayMs: 0 },
    });
    run.on('progress', (x) => reporter.progress(x));
    run.on('warning', (x) => reporter.warning(x));
    const s = await run;
    const store = await openStore(storeDir, { readonly: true });
    try {
      let robots = 0;
      for await (const h of store.history()) if (h.error?.startsWith('FC_ERR_ROBOTS')) robots++;
      io.out(
        `${s.stopReason}: ${s.run.fetched} pages, ${s.run.complete} kept, ${s.run.discard} discarded, ${s.run.error} failed${robots > 0 ? ` (${robots} of them refused by robots.txt, which disallows /apply/)` : ''}`,
      );
      io.out(`\n── 2. Fields\n${formatFieldStats(await store.fieldStats())}`);
      io.out(`\n── 3. Checked against the test web's truth\n${await checkTruth(store)}`);
      io.out('\n── 4. Exports');
      for (const format of ['html', 'xml'] as const) {
        const file = join(dir, `jobs.${format}`);
        const sink = await openFileSink(file);
        try {
          const { rows } = await exportStore(store, { what: 'records', format }, (c) =>
            sink.write(c),
          );
          await sink.commit();
          io.out(
            `   ${file}: ${rows} records (focuscrawl export --store ${storeDir} --what records --format ${format})`,
          );
        } catch (e) {
          await sink.abort();
          throw e;
        }
      }
    } finally {
      await store.close();
    }
    io.out(`\nOpen ${join(dir, 'jobs.html')} in a browser: click a column's header to sort by it.`);
    return 0;
  } finally {
    await web.close();
  }
}

/** Every field of every kept posting against jobFields: a line per field. */
async function checkTruth(store: Store): Promise<string> {
  const got = new Map<string, Map<string, string | null>>();
  for await (const r of store.fields()) {
    const m = got.get(r.url) ?? new Map<string, string | null>();
    if (r.position === 0) m.set(r.field, r.value);
    got.set(r.url, m);
  }
  const names = ['title', 'company', 'salary', 'place', 'date', 'description'] as const;
  const equal = new Map<string, number>(names.map((n) => [n, 0]));
  let programming = 0;
  for (const [url, m] of got) {
    const n = /\/job\/(\d+)$/.exec(url);
    if (n === null) continue;
    const t = jobFields(1, Number(n[1]));
    if (t.category === 'programming') programming++;
    const want: Record<(typeof names)[number], string | null> = {
      ...t,
      salary: parseMoney(t.salary, 'CNY') ?? null,
    };
    for (const f of names) if ((m.get(f) ?? null) === want[f]) equal.set(f, equal.get(f)! + 1);
  }
  const lines = [`   ${got.size} postings kept (${programming} programming jobs by the truth)`];
  for (const f of names)
    lines.push(`   ${f.padEnd(12)} ${equal.get(f)} of ${got.size} equal to the truth`);
  return lines.join('\n');
}
