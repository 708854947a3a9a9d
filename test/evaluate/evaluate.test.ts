// `focuscrawl evaluate` on a real crawl of the test web on 127.0.0.1, against the
// test web's own labels: the figures agree with a count made here from the history.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { crawl } from '../../src/crawl/index.js';
import type { StoreEvaluation } from '../../src/evaluate/index.js';
import { openStore } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { runCli } from '../run-cli.js';
import { webFetcher } from '../web-fetcher.js';

const BUDGET = 200;
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-evaluate-'));
const L = labels({ seed: 1, size: 'small' });
const T = L.topics.find((t) => t.id === 'monitor');
assert.ok(T);
const store = join(root, 'monitor');
const labelsJson = join(root, 'labels.json');
const relevantTxt = join(root, 'relevant.txt');
let web: TestWeb;

/** What the evaluation must find, counted here from the history. */
const truth = { fetched: 0, relevant: 0, tp: 0, fp: 0, fn: 0, tn: 0 };

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  await crawl({
    store,
    topic: T.topic,
    seeds: T.seeds,
    maxPages: BUDGET,
    fetcher: webFetcher(web),
  });
  writeFileSync(labelsJson, JSON.stringify(L, null, 1));
  writeFileSync(relevantTxt, `# monitor\n${T.relevant.join('\n')}\n`);
  const relevant = new Set(T.relevant);
  const s = await openStore(store, { readonly: true });
  for await (const h of s.history()) {
    truth.fetched++;
    if (h.state === 'error') continue;
    const r = relevant.has(h.url);
    if (r) truth.relevant++;
    if (h.state === 'complete') r ? truth.tp++ : truth.fp++;
    else r ? truth.fn++ : truth.tn++;
  }
  await s.close();
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

const run = runCli;

test('evaluate --json: harvest rate, recall and the decision from the labels', async () => {
  const r = await run(
    'evaluate',
    '--store',
    store,
    '--labels',
    labelsJson,
    '--topic',
    'monitor',
    '--json',
    '--budgets',
    '50,100',
  );
  assert.equal(r.code, 0, r.err);
  const ev = JSON.parse(r.out) as StoreEvaluation;
  assert.equal(ev.fetched, BUDGET);
  assert.equal(truth.fetched, BUDGET);
  assert.equal(ev.relevant, truth.relevant);
  assert.equal(ev.labelled, new Set(T.relevant).size);
  assert.equal(ev.harvestRate, truth.relevant / BUDGET);
  assert.equal(ev.recall, truth.relevant / ev.labelled);
  assert.deepEqual(
    [
      ev.decision.truePositive,
      ev.decision.falsePositive,
      ev.decision.falseNegative,
      ev.decision.trueNegative,
    ],
    [truth.tp, truth.fp, truth.fn, truth.tn],
  );
  assert.deepEqual(
    ev.budgets.map((b) => [b.budget, b.end, b.at?.fetched]),
    [
      [50, false, 50],
      [100, false, 100],
      [BUDGET, true, BUDGET],
    ],
  );
  assert.equal(ev.curve.at(-1)?.fetched, BUDGET);
  assert.equal(ev.labels.topic, 'monitor');
  assert.equal(ev.crawl.strategy, 'best-first');
  assert.equal(ev.crawl.stopReason, 'max-pages');
  assert.ok(truth.relevant > 0 && truth.relevant < BUDGET, String(truth.relevant));
});

test('evaluate prints the table; a URL list gives the same figures', async () => {
  const r = await run('evaluate', '--store', store, '--labels', relevantTxt);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Labels\s+.*relevant\.txt: [\d,]+ relevant URLs$/m);
  assert.match(
    r.out,
    new RegExp(
      `^Crawl\\s+${BUDGET} fetched \\(\\d+ pages, \\d+ failed\\); best-first, max-pages, [\\d.]+ pages/s$`,
      'm',
    ),
  );
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const row = new RegExp(
    `^ {2}end\\s+${BUDGET}\\s+${truth.relevant}\\s+${pct(truth.relevant / BUDGET).replace('.', '\\.')}\\s+`,
    'm',
  );
  assert.match(r.out, row);
  assert.match(r.out, /^ {2}1,000\s+–\s+–\s+not reached\s+–$/m);
  assert.match(r.out, /^ {2}kept\s+\d+\s+\d+$/m);
  assert.match(r.out, /^ {2}precision [\d.]+%, recall [\d.]+%, F1 [\d.]+%$/m);
});

test('evaluate --out writes a self-contained page with the curves', async () => {
  const out = join(root, 'evaluation.html');
  const r = await run(
    'evaluate',
    '--store',
    store,
    '--labels',
    labelsJson,
    '--topic',
    'monitor',
    '--out',
    out,
  );
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Evaluation written to .*evaluation\.html/);
  const html = readFileSync(out, 'utf8');
  assert.match(html, /^<!doctype html>/);
  assert.match(
    html,
    /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/,
  );
  assert.doesNotMatch(html, /<script|<link|<img|NaN|undefined/i);
  assert.equal(html.match(/<svg class="chart"/g)?.length, 2);
  assert.match(html, /<title>Harvest rate over the crawl<\/title>/);
  assert.match(html, /<title>Target recall over the crawl<\/title>/);
  assert.match(html, new RegExp(`<title>Crawl evaluation: ${T.name}</title>`));
});

test('evaluate: bad labels and flags are named', async () => {
  const bad = join(root, 'bad.txt');
  writeFileSync(bad, 'http://a.test/\nnot a url\n');
  const r = await run('evaluate', '--store', store, '--labels', bad);
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /^FC_ERR_INVALID_OPTION: .*bad\.txt:2: "not a url" is not an http\(s\) URL$/m,
  );
  const noTopic = await run('evaluate', '--store', store, '--labels', labelsJson);
  assert.equal(noTopic.code, 1);
  assert.match(noTopic.err, /the labels hold 4 topics; pick one/);
  const usage = await run('evaluate', '--store', store);
  assert.equal(usage.code, 2);
  assert.match(usage.err, /--labels is required/);
  const budgets = await run(
    'evaluate',
    '--store',
    store,
    '--labels',
    relevantTxt,
    '--budgets',
    '10,x',
  );
  assert.equal(budgets.code, 2);
  assert.match(budgets.err, /--budgets expects whole numbers/);
  const missing = await run('evaluate', '--store', join(root, 'nope'), '--labels', relevantTxt);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /FC_ERR_STORE/);
});
