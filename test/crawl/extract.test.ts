// `crawl --extract`: the fields of the job pages a crawl of jobs.test keeps are in the
// store's fields table, each equal to the test web's truth (jobFields), written with
// the page; status shows the fill rates; `focuscrawl extract` re-runs rules on the
// stored bodies without fetching.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { crawl } from '../../src/crawl/index.js';
import { parseMoney } from '../../src/extract/index.js';
import { type FieldRecord, openStore } from '../../src/store/index.js';
import { jobFields, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { runCli } from '../run-cli.js';

const RULES = join(import.meta.dirname, '../../examples/jobs-rules.json');
const dir = tempDir('extract');
let web: TestWeb;
before(async () => {
  web = await startTestWeb({ port: 0 });
});
after(async () => {
  await web.close();
});

const fetcher = () => ({ resolve: [web.resolve], allowPrivateAddresses: true, delayMs: 0 });
/** Programming jobs, in Chinese. */
const topic = {
  keywords: { 开发: 3, 代码: 2, 算法: 2, 计算机: 2, 工程师: 2, 技术: 1, 系统: 1, 数据库: 1 },
  threshold: 0.15,
};

/** Fields by page URL, then field name (values in position order). */
async function fieldsOf(store: string): Promise<Map<string, Map<string, (string | null)[]>>> {
  const st = await openStore(store, { readonly: true });
  const out = new Map<string, Map<string, (string | null)[]>>();
  try {
    for await (const r of st.fields() as AsyncIterable<FieldRecord>) {
      const page = out.get(r.url) ?? new Map<string, (string | null)[]>();
      page.set(r.field, [...(page.get(r.field) ?? []), r.value]);
      out.set(r.url, page);
    }
  } finally {
    await st.close();
  }
  return out;
}

test('crawl --extract keeps every kept job page with its fields, each equal to the truth', async () => {
  const store = join(dir, 'jobs');
  const s = await crawl({
    store,
    topic,
    seeds: ['http://jobs.test/'],
    scope: 'same-host',
    maxPages: 150,
    sitemaps: 'none',
    extract: RULES,
    fetcher: fetcher(),
  });
  assert.ok(s.run.complete >= 20, `${s.run.complete} kept`);
  const fields = await fieldsOf(store);
  const st = await openStore(store, { readonly: true });
  const keptJobs: string[] = [];
  try {
    for await (const p of st.pages())
      if (p.state === 'complete' && /\/job\/\d+$/.test(p.url)) keptJobs.push(p.url);
  } finally {
    await st.close();
  }
  assert.ok(keptJobs.length >= 10, `${keptJobs.length} job pages kept`);
  // Every kept job page has its fields; nothing else has any.
  assert.deepEqual([...fields.keys()].sort(), [...keptJobs].sort());
  let programming = 0;
  for (const url of keptJobs) {
    const truth = jobFields(1, Number(/\/job\/(\d+)$/.exec(url)![1]));
    if (truth.category === 'programming') programming++;
    const f = fields.get(url)!;
    const one = (name: string) => f.get(name)?.[0] ?? null;
    assert.equal(one('title'), truth.title, url);
    assert.equal(one('company'), truth.company, url);
    assert.equal(one('place'), truth.place, url);
    assert.equal(one('date'), truth.date, url);
    assert.equal(one('description'), truth.description, url);
    // Money is normalised (docs/extract.md); 面议 ("negotiable") has no amount.
    assert.equal(one('salary'), parseMoney(truth.salary, 'CNY') ?? null, url);
  }
  // The topic keeps the programming jobs, and those only.
  assert.equal(programming, keptJobs.length);
  // status: per rule set, the pages it matched and each field's fill rate.
  const status = await runCli('status', '--store', store);
  assert.match(status.out, new RegExp(`^Fields\\s+jobs: ${keptJobs.length} pages`, 'm'));
  assert.match(status.out, /title\s+100\.0%/);
  // The report: the same, per rule set.
  const html = join(dir, 'report.html');
  const rep = await runCli('report', '--store', store, '--out', html);
  assert.equal(rep.code, 0, rep.err);
  const page = readFileSync(html, 'utf8');
  assert.match(page, /<h2>Extracted fields<\/h2>/);
  assert.match(page, new RegExp(`Rule set <code>jobs</code>: ${keptJobs.length} pages matched`));
  assert.match(page, /<code>title<\/code><\/td><td class="n">\d+<\/td><td class="n">100\.0%/);
});

test('focuscrawl extract re-runs rules on the stored bodies without fetching', async () => {
  const store = join(dir, 'again');
  await crawl({
    store,
    topic,
    seeds: ['http://jobs.test/'],
    scope: 'same-host',
    maxPages: 60,
    sitemaps: 'none',
    fetcher: fetcher(),
  });
  assert.equal((await fieldsOf(store)).size, 0);
  // Rules that take the title alone, and a field no page has.
  const rules = join(dir, 'titles.yaml');
  writeFileSync(
    rules,
    [
      'version: 1',
      'ruleSets:',
      '  - name: titles',
      "    urls: '/job/\\d+$'",
      '    fields:',
      '      title: { css: h1.job-title, required: true }',
      '      logo: { css: { selector: img.logo, attr: src } }',
      '',
    ].join('\n'),
  );
  const since = web.requests.length;
  const r = await runCli('extract', '--store', store, '--rules', rules);
  assert.equal(r.code, 0, r.err);
  assert.equal(web.requests.length, since, 'extract fetched something');
  const fields = await fieldsOf(store);
  assert.ok(fields.size >= 5, `${fields.size} pages`);
  for (const [url, f] of fields) {
    const truth = jobFields(1, Number(/\/job\/(\d+)$/.exec(url)![1]));
    assert.deepEqual(f.get('title'), [truth.title]);
    assert.deepEqual(f.get('logo'), [null]);
  }
  assert.match(r.out, new RegExp(`titles: ${fields.size} pages`));
  assert.match(r.out, /logo\s+0\.0%/);
  // A bad rule file is refused naming the file and the field, and nothing is written.
  const bad = join(dir, 'bad.json');
  writeFileSync(
    bad,
    '{"version":1,"ruleSets":[{"name":"x","urls":"a","fields":{"t":{"css":"h1","regex":"(?<a>b)"}}}]}',
  );
  const b = await runCli('extract', '--store', store, '--rules', bad);
  assert.notEqual(b.code, 0);
  assert.match(b.err, /bad\.json.*rule set "x", field "t"/);
});

test('inspect --rules shows what each field got, and why a field got nothing', async () => {
  const fast = ['--resolve', web.resolve, '--delay-ms', '0'];
  const truth = jobFields(1, 7);
  const r = await runCli('inspect', 'http://jobs.test/job/7', '--rules', RULES, ...fast);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Fields\s+rule set "jobs"$/m);
  assert.match(r.out, new RegExp(`^\\s+title \\*\\s+${truth.title}$`, 'm'));
  assert.match(r.out, new RegExp(`^\\s+company\\s+${truth.company}$`, 'm'));
  // A list page: no rule set matches its URL.
  const list = await runCli('inspect', 'http://jobs.test/list/1', '--rules', RULES, ...fast);
  assert.match(list.out, /^Fields\s+none: no rule set matched the URL$/m);
  // Rules whose markers the page lacks: the required field is missing, with the reason.
  const odd = join(dir, 'odd.json');
  writeFileSync(
    odd,
    JSON.stringify({
      version: 1,
      ruleSets: [
        {
          name: 'jobs',
          urls: '/job/\\d+$',
          fields: { summary: { between: { start: '工作摘要', end: '申请' }, required: true } },
        },
      ],
    }),
  );
  const j = await runCli('inspect', 'http://jobs.test/job/7', '--rules', odd, '--json', ...fast);
  const rep = JSON.parse(j.out) as {
    fields: { matched: { missingRequired: string[]; fields: { reason?: string }[] }[] };
  };
  assert.deepEqual(rep.fields.matched[0]!.missingRequired, ['summary']);
  assert.match(rep.fields.matched[0]!.fields[0]!.reason ?? '', /start marker "工作摘要" not found/);
});

test('demo jobs crawls jobs.test, checks every field against the truth and writes the HTML table and XML', async () => {
  const out = join(dir, 'demo');
  const r = await runCli('demo', 'jobs', '--dir', out, '--pages', '200', '--quiet');
  assert.equal(r.code, 0, r.err);
  const m = /(\d+) postings kept \((\d+) programming jobs by the truth\)/.exec(r.out);
  assert.ok(m !== null, r.out);
  assert.equal(m[1], m[2], 'only programming jobs kept');
  for (const f of ['title', 'company', 'salary', 'place', 'date', 'description'])
    assert.match(r.out, new RegExp(`${f}\\s+${m[1]} of ${m[1]} equal to the truth`));
  const html = readFileSync(join(out, 'jobs.html'), 'utf8');
  const xml = readFileSync(join(out, 'jobs.xml'), 'utf8');
  assert.equal((html.match(/<tr>/g) ?? []).length - 1, Number(m[1]));
  assert.match(
    xml,
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<focuscrawl-export what="records" version="1">/,
  );
});
