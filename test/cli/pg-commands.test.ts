// Every command that reads or writes a store takes a PostgreSQL store URL as it takes a
// directory: a crawl of the test web into PostgreSQL, then status, export, report,
// rank, search, extract and evaluate on it, each checked against what the crawl kept.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connectStore, type PageRecord } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { type PgCluster, pgSkipReason, startPg } from '../pg.js';
import { runCli } from '../run-cli.js';

const root = tempDir('pg-cli');
const DB = 'cli';
let pg: PgCluster | undefined;
let web: TestWeb;
let store = '';
const kept: PageRecord[] = [];

describe('the commands on a PostgreSQL store', { skip: pgSkipReason() }, () => {
  before(async () => {
    pg = await startPg();
    await pg.createDatabase(DB);
    web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
    const astronomy = labels({ seed: 1, size: 'small' }).topics.find((t) => t.id === 'astronomy');
    const topicFile = join(root, 'topic.json');
    writeFileSync(topicFile, JSON.stringify(astronomy?.topic));
    writeFileSync(join(root, 'labels.json'), JSON.stringify(labels({ seed: 1, size: 'small' })));
    store = `postgres://postgres@127.0.0.1:${pg.port}/${DB}?schema=astro`;
    const r = await runCli(
      'crawl',
      '--store',
      store,
      '--topic',
      topicFile,
      '--seeds',
      'http://stargazer.test/',
      '--scope',
      'same-host',
      '--max-pages',
      '40',
      '--delay-ms',
      '0',
      '--sitemaps',
      'none',
      '--store-bodies',
      'kept',
      '--full-text',
      'kept',
      '--resolve',
      web.resolve,
      '--allow-private',
      '--quiet',
    );
    assert.equal(r.code, 0, r.err);
    const s = await connectStore(store, { readonly: true });
    for await (const p of s.pages()) if (p.state === 'complete') kept.push(p);
    await s.close();
    assert.ok(kept.length >= 5, `the crawl kept ${kept.length} pages`);
  });
  after(async () => {
    await web?.close();
    await pg?.stop();
  });

  test('status', async () => {
    const r = await runCli('status', '--store', store, '--json');
    assert.equal(r.code, 0, r.err);
    const d = JSON.parse(r.out) as { store: string; counts?: { complete: number } };
    assert.equal(d.store, store);
    assert.equal(d.counts?.complete, kept.length);
  });

  test('export: the kept pages, one line each', async () => {
    const out = join(root, 'pages.jsonl');
    const r = await runCli(
      'export',
      '--store',
      store,
      '--what',
      'pages',
      '--state',
      'complete',
      '--out',
      out,
    );
    assert.equal(r.code, 0, r.err);
    const urls = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { url: string }).url);
    assert.deepEqual(urls.sort(), kept.map((p) => p.url).sort());
  });

  test('rank writes the page scores; search finds a kept page by its title', async () => {
    const r = await runCli('rank', '--store', store);
    assert.equal(r.code, 0, r.err);
    const s = await connectStore(store, { readonly: true });
    const scored: PageRecord[] = [];
    for await (const p of s.pages()) if (p.state === 'complete') scored.push(p);
    await s.close();
    assert.ok(scored.every((p) => p.score !== null && p.pageRank !== null));
    const titled = kept.find((p) => p.title !== null && /\p{L}{4,}/u.test(p.title));
    assert.ok(titled?.title);
    const word = /\p{L}{4,}/u.exec(titled.title)?.[0] as string;
    const q = await runCli('search', '--store', store, word, '--json', '--limit', '100');
    assert.equal(q.code, 0, q.err);
    const hits = JSON.parse(q.out) as { url: string }[] | { hits: { url: string }[] };
    const list = Array.isArray(hits) ? hits : hits.hits;
    assert.ok(
      list.some((h) => h.url === titled.url),
      `search ${word} finds ${titled.url}`,
    );
  });

  test('report writes the HTML report', async () => {
    const out = join(root, 'report.html');
    const r = await runCli('report', '--store', store, '--out', out);
    assert.equal(r.code, 0, r.err);
    const html = readFileSync(out, 'utf8');
    assert.match(html, /<html/i);
    assert.ok(html.includes(kept[0]?.url as string) || html.includes(String(kept.length)));
  });

  test('extract runs rules over the stored bodies', async () => {
    const rules = join(root, 'rules.json');
    writeFileSync(
      rules,
      JSON.stringify({
        version: 1,
        ruleSets: [{ name: 'page', urls: '^http://stargazer', fields: { link: { css: 'a' } } }],
      }),
    );
    const r = await runCli('extract', '--store', store, '--rules', rules, '--json');
    assert.equal(r.code, 0, r.err);
    const d = JSON.parse(r.out) as { pages: number; matched: number };
    assert.ok(d.pages >= kept.length && d.matched > 0, r.out);
    const s = await connectStore(store, { readonly: true });
    const page = kept[0] as PageRecord;
    const fields = [];
    for await (const f of s.fields({ url: page.url })) fields.push(f);
    await s.close();
    assert.deepEqual(
      fields.map((f) => [f.ruleSet, f.field]),
      [['page', 'link']],
    );
    assert.ok(typeof fields[0]?.value === 'string' && fields[0].value !== '', 'a link text');
  });

  test('evaluate against the test web labels', async () => {
    const r = await runCli(
      'evaluate',
      '--store',
      store,
      '--labels',
      join(root, 'labels.json'),
      '--topic',
      'astronomy',
      '--json',
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /harvest/i);
  });
});
