// The command line, run in-process through main() against the test web on 127.0.0.1.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { runCli } from '../run-cli.js';

let web: TestWeb;
const dir = tempDir('cli');

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
});

const run = runCli;

const fast = () => ['--resolve', web.resolve, '--delay-ms', '0'];

test('inspect explains a GBK page without a declared charset', async () => {
  const r = await run('inspect', 'http://gbk-none.test/page/1', ...fast());
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Status\s+200/m);
  assert.match(r.out, /^Charset\s+gbk \(not declared: detected from the bytes\)/m);
  assert.match(r.out, /^Robots\s+allowed/m);
});

test('inspect --json with a topic scores the page by keyword VSM', async () => {
  const t = labels({ seed: 1, size: 'small' }).topics.find((x) => x.id === 'monitor');
  assert.ok(t);
  const topicFile = join(dir, 'monitor.json');
  writeFileSync(topicFile, JSON.stringify(t.topic));
  const url = t.relevant[5] as string;
  const r = await run('inspect', url, '--topic', topicFile, '--json', ...fast());
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  assert.equal(report.fetch.status, 200);
  assert.ok(report.relevance.score >= 0.1, `relevance ${report.relevance.score}`);
  assert.equal(report.relevance.verdict, 'keep');
  assert.ok(report.page.links.length > 5);
  assert.ok(report.page.links.every((l: { url: string }) => l.url.startsWith('http://')));
});

test('inspect reports a robots.txt refusal with the rule and exits 1', async () => {
  const r = await run('inspect', 'http://robots-rules.test/private/x.html', ...fast());
  assert.equal(r.code, 1);
  assert.match(r.out, /DISALLOWED by "disallow: \/private\/"/);
  assert.match(r.out, /FC_ERR_ROBOTS_DISALLOWED/);
});

test('inspect shows every redirect hop', async () => {
  const r = await run('inspect', 'http://redirect.test/chain/2', ...fast());
  assert.equal(r.code, 0, r.err);
  assert.equal((r.out.match(/^Redirect\s+301/gm) ?? []).length, 2);
  assert.match(r.out, /^Final URL\s+http:\/\/redirect\.test\/chain\/0$/m);
});

test('inspect refuses a loopback address unless allowed, and sends nothing there', async () => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('<title>private</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    const r = await run('inspect', `http://127.0.0.1:${port}/`, '--delay-ms', '0');
    assert.equal(r.code, 1);
    assert.match(r.out + r.err, /FC_ERR_BLOCKED_ADDRESS/);
    assert.equal(hits, 0);
    const ok = await run(
      'inspect',
      `http://127.0.0.1:${port}/`,
      '--delay-ms',
      '0',
      '--allow-private',
    );
    assert.equal(ok.code, 0, ok.out + ok.err);
    assert.match(ok.out, /^Title\s+private$/m);
    assert.ok(hits >= 1);
  } finally {
    server.close();
  }
});

test('a broken topic file is named with the field at fault', async () => {
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{ "keywords": { "grid": -1 } }');
  const r = await run('inspect', 'http://gbk-none.test/page/1', '--topic', bad, ...fast());
  assert.equal(r.code, 1);
  assert.match(r.err, /FC_ERR_TOPIC_FILE/);
  assert.match(r.err, /bad\.json/);
  assert.match(r.err, /grid/);
});

test('a JSON syntax error in a topic file is reported with its line', async () => {
  const bad = join(dir, 'syntax.json');
  writeFileSync(bad, '{\n  "keywords": {\n    "grid": 1,\n  }\n}\n');
  const r = await run('inspect', 'http://gbk-none.test/page/1', '--topic', bad, ...fast());
  assert.equal(r.code, 1);
  assert.match(r.err, /syntax\.json.*line 4/);
});

test('usage errors name the flag and exit 2', async () => {
  const unknown = await run('inspect', 'http://a.test/', '--no-such-flag');
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /FC_ERR_CLI_USAGE.*no-such-flag/);
  const badNum = await run('inspect', 'http://a.test/', '--retries', 'many');
  assert.equal(badNum.code, 2);
  assert.match(badNum.err, /--retries expects a non-negative integer, got "many"/);
  const badResolve = await run('inspect', 'http://a.test/', '--resolve', 'nonsense');
  assert.equal(badResolve.code, 1);
  assert.match(badResolve.err, /FC_ERR_RESOLVE_SPEC.*nonsense/);
  const badUrl = await run('inspect', 'ftp://a.test/');
  assert.equal(badUrl.code, 1);
  assert.match(badUrl.err, /FC_ERR_INVALID_URL.*ftp:\/\/a\.test/);
  const cmd = await run('crawlz');
  assert.equal(cmd.code, 2);
});

test('testweb labels exports a topic file and the relevant URLs', async () => {
  const topic = await run('testweb', 'labels', '--topic', 'grid', '--format', 'topic');
  assert.equal(topic.code, 0, topic.err);
  const parsed = JSON.parse(topic.out);
  assert.ok(Object.keys(parsed.keywords).includes('电网'));
  const urls = await run('testweb', 'labels', '--topic', 'grid', '--format', 'urls');
  const list = urls.out.trim().split('\n');
  assert.deepEqual(
    list,
    labels({ seed: 1, size: 'small' }).topics.find((t) => t.id === 'grid')?.relevant,
  );
  const unknown = await run('testweb', 'labels', '--topic', 'knitting', '--format', 'urls');
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.err,
    /unknown topic "knitting" \(topics: monitor, grid, astronomy, cooking\)/,
  );
});

test('the demo crawls focused and plain, writes the report and compares harvest rates', async () => {
  const out = join(dir, 'demo');
  const r = await run('demo', '--pages', '150', '--size', 'small', '--dir', out, '--quiet');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /max-pages: 150 pages/);
  assert.match(r.out, /^Docs fetched\s+150/m);
  assert.match(r.out, /^ {2}focused \(best-first\)\s+150 /m);
  assert.match(r.out, /^ {2}plain \(bfs\)\s+150 /m);
  assert.match(r.out, /Report: .*report\.html/);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<svg/);
  const focused = Number(/the focused crawl fetched (\d+) relevant pages/.exec(r.out)?.[1]);
  const plain = Number(/the plain crawl (\d+)/.exec(r.out)?.[1]);
  assert.ok(focused > plain, `focused ${focused} vs plain ${plain}`);
});

test('watch refuses a bad budget, duration or end time, naming the flag, and starts nothing', async () => {
  const topicFile = join(dir, 'watch-topic.json');
  writeFileSync(topicFile, JSON.stringify({ keywords: { news: 1 } }));
  const store = join(dir, 'watch-bad');
  const base = ['--store', store, '--topic', topicFile, '--seeds', 'http://news.test/', ...fast()];
  const cases: [string[], RegExp][] = [
    [[], /--budget is required/],
    [['--budget', '0/min'], /--budget: a budget of 0 requests allows nothing/],
    [['--budget', 'lots'], /--budget: expected requests per unit such as 30\/min/],
    [['--budget', '30/fortnight'], /--budget: expected requests per unit/],
    [['--budget', '30/min', '--duration', 'forever'], /--duration expects a duration such as 90s/],
    [['--budget', '30/min', '--duration=-5m'], /--duration/],
    [
      ['--budget', '30/min', '--until', '2020-01-01T00:00:00Z'],
      /--until 2020-01-01T00:00:00Z is in the past/,
    ],
    [['--budget', '30/min', '--until', 'tomorrow'], /--until expects a time/],
    [
      ['--budget', '30/min', '--discovery-share', '2'],
      /--discovery-share expects a number from 0 to 1, got "2"/,
    ],
    [
      ['--budget', '30/min', '--revisit-policy', 'often'],
      /--revisit-policy expects one of freshness, uniform, none/,
    ],
    [
      ['--budget', '30/min', '--revisit-weight', 'pagerank'],
      /--revisit-weight expects one of none, relevance, score, got "pagerank"/,
    ],
  ];
  for (const [flags, message] of cases) {
    const r = await run('watch', ...base, ...flags);
    assert.equal(r.code, 2, `${flags.join(' ')}: ${r.err}`);
    assert.match(r.err, message, flags.join(' '));
  }
  assert.equal(web.requests.filter((x) => x.host === 'news.test').length, 0);
});
