// Field extraction speed (BENCHMARKS.md): focuscrawl's `extractPage` with the job-board
// rules (examples/jobs-rules.json: a css title, two regexes over the text, css salary and
// date with their types, the description between two markers) over jobs.test's posting
// pages, against the same six fields cut out with cheerio (the parser Crawlee's
// CheerioCrawler hands its users) by hand-written code, in the same run. Pages are
// fetched once from the test web (127.0.0.1) and held in memory as decoded HTML; only
// extraction is timed. Both must agree with the test web's truth before timing.
//
//   node --import tsx bench/extract.ts [--pages 300] [--rounds 30]
//   (cheerio comes from bench/node_modules: `npm install` in bench/ first)
import { parseArgs } from 'node:util';
import { extractPage, loadRules, parseMoney } from '../src/extract/index.js';
import { decodeBody } from '../src/fetch/charset/index.js';
import { JOB_COUNTS, jobFields, startTestWeb } from '../src/testweb/index.js';
import { rawGet } from '../src/testweb/testing.js';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '300' }, rounds: { type: 'string', default: '30' } },
});
const n = Math.min(Number(values.pages), JOB_COUNTS.small);
const rounds = Number(values.rounds);
const rules = await loadRules(new URL('../examples/jobs-rules.json', import.meta.url).pathname);

const web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
const pages: { url: string; html: string }[] = [];
try {
  for (let i = 0; i < n; i++) {
    const r = await rawGet(web.port, 'jobs.test', `/job/${i}`);
    pages.push({
      url: `http://jobs.test/job/${i}`,
      html: decodeBody(r.body, String(r.headers['content-type'])).text,
    });
  }
} finally {
  await web.close();
}
const bytes = pages.reduce((s, p) => s + Buffer.byteLength(p.html), 0);

type Fields = Record<string, string | null>;

/** The little of cheerio's API used here (bench/node_modules; not type-checked with the project). */
interface Selection {
  text(): string;
  map(fn: (i: number, el: unknown) => string): { get(): string[] };
}
type Cheerio = ((selector: string | unknown) => Selection) & Record<string, unknown>;
const cheerioModule = 'cheerio';
const { load } = (await import(cheerioModule)) as { load: (html: string) => Cheerio };

function withFocuscrawl(p: { url: string; html: string }): Fields {
  const out: Fields = {};
  for (const f of extractPage(rules, p).matched[0]!.fields)
    out[f.name] = f.values[0]?.value ?? null;
  return out;
}

/** The same six fields with cheerio and code written for this page layout. */
function withCheerio(p: { url: string; html: string }): Fields {
  const $ = load(p.html);
  const text = $('body').text();
  const start = text.indexOf('职位描述');
  const end = text.indexOf('申请这个职位', start);
  const desc = $('.job-desc p')
    .map((_, el) => $(el).text().trim())
    .get()
    .filter((t) => t !== '申请这个职位')
    .join('\n');
  const date = /(\d{4})-(\d{2})-(\d{2})/.exec($('.job-meta .date').text());
  return {
    title: $('h1.job-title').text().trim(),
    company: /公司：(\S+)/.exec(text)?.[1] ?? null,
    salary: parseMoney($('.job-meta .salary').text(), 'CNY') ?? null,
    place: /工作地点：([^\s。]+)/.exec(text)?.[1] ?? null,
    date: date ? date[0] : null,
    description: start >= 0 && end > start ? desc : null,
  };
}

// Both agree with the truth before anything is timed.
for (const [name, fn] of [
  ['focuscrawl', withFocuscrawl],
  ['cheerio', withCheerio],
] as const) {
  let bad = 0;
  for (const p of pages) {
    const t = jobFields(1, Number(/(\d+)$/.exec(p.url)![1]));
    const want: Fields = {
      title: t.title,
      company: t.company,
      salary: parseMoney(t.salary, 'CNY') ?? null,
      place: t.place,
      date: t.date,
      description: t.description,
    };
    const got = fn(p);
    for (const k of Object.keys(want)) if (got[k] !== want[k]) bad++;
  }
  if (bad > 0) throw new Error(`${name}: ${bad} fields differ from the truth`);
}

function time(fn: (p: { url: string; html: string }) => Fields): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const p of pages) fn(p);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}
time(withFocuscrawl);
time(withCheerio);
const fc = time(withFocuscrawl);
const ch = time(withCheerio);
const rate = (ms: number) => (pages.length / ms) * 1000;
process.stdout.write(
  `extraction of 6 fields from ${pages.length} job pages (${(bytes / pages.length / 1024).toFixed(1)} KiB each), best of ${rounds} rounds:\n` +
    `  focuscrawl extractPage  ${rate(fc).toFixed(0)} pages/s  (${((bytes / 1048576 / fc) * 1000).toFixed(1)} MB/s of HTML)\n` +
    `  cheerio, by hand        ${rate(ch).toFixed(0)} pages/s  (${((bytes / 1048576 / ch) * 1000).toFixed(1)} MB/s of HTML)\n` +
    `  ratio                   ${(rate(fc) / rate(ch)).toFixed(2)}×\n`,
);
