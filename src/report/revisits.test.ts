// The report's revisits section: visits per time bucket, the share found unchanged,
// and λ̂ by decade, from stores written through the Store API.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildRevisitStore, REVISIT_TIMES } from '../export/__fixtures__/revisits.js';
import { buildSampleStore } from '../export/testing.js';
import {
  createMemoryStore,
  openStore,
  type Store,
  type VisitChange,
  type VisitOutcome,
} from '../store/index.js';
import { buildReport, gatherReport } from './index.js';
import { unchangedShares } from './revisit-section.js';
import { MAX_BUCKETS, RATE_DECADES, rateDecade, VisitBuckets } from './revisits.js';

const SEC = 1000;
const MIN = 60 * SEC;
const DAY = 86_400_000;
const charts = (html: string) => html.match(/<svg class="chart"/g)?.length ?? 0;
const sectionOf = (html: string, id: string) => {
  const start = html.indexOf(`<section id="${id}">`);
  return start < 0 ? '' : html.slice(start, html.indexOf('</section>', start));
};
const visitsIn = (b: Record<VisitChange, number>) => b.unchanged + b.changed + b.gone + b.failed;

describe('VisitBuckets', () => {
  it('keeps every bucket from the first visit to the last, empty ones included', () => {
    const b = new VisitBuckets();
    b.add(10 * SEC + 400, 'changed');
    b.add(13 * SEC, 'unchanged');
    b.add(13 * SEC + 999, 'failed');
    assert.equal(b.width, SEC);
    assert.deepEqual(
      b.buckets().map((x) => [x.start, x.changed, x.unchanged, x.failed]),
      [
        [10 * SEC, 1, 0, 0],
        [11 * SEC, 0, 0, 0],
        [12 * SEC, 0, 0, 0],
        [13 * SEC, 0, 1, 1],
      ],
    );
  });

  it('widens to the next round width when the span outgrows the buckets, merging exactly', () => {
    const b = new VisitBuckets();
    for (const at of [0, SEC, 2 * SEC, 4 * SEC + 999]) b.add(at, 'unchanged');
    b.add(100 * SEC, 'gone'); // 101 one-second buckets > 48: five seconds each
    assert.equal(b.width, 5 * SEC);
    const buckets = b.buckets();
    assert.equal(buckets.length, 21);
    assert.deepEqual([buckets[0]?.unchanged, buckets[20]?.gone], [4, 1]);
    assert.equal(
      buckets.reduce((t, x) => t + visitsIn(x), 0),
      5,
    );
  });

  it('stays within MAX_BUCKETS over weeks, at a width in whole days', () => {
    const b = new VisitBuckets();
    let n = 0;
    for (let at = 0; at <= 30 * DAY; at += 3 * 3_600_000) {
      b.add(at, n % 3 === 0 ? 'changed' : 'unchanged');
      n++;
    }
    assert.equal(b.width, DAY);
    const buckets = b.buckets();
    assert.ok(buckets.length <= MAX_BUCKETS, `${buckets.length} buckets`);
    assert.equal(
      buckets.reduce((t, x) => t + visitsIn(x), 0),
      n,
    );
    assert.ok(buckets.every((x, i) => x.start === i * DAY));
  });
});

it('rateDecade counts λ̂ by decade as the revisit plan does', () => {
  const cases: [number, string][] = [
    [0, '<0.01'],
    [0.0099, '<0.01'],
    [0.01, '0.01–0.1'],
    [0.1, '0.1–1'],
    [0.5, '0.1–1'],
    [1, '1–10'],
    [99, '10–100'],
    [100, '≥100'],
    [1e6, '≥100'],
  ];
  for (const [rate, label] of cases) assert.equal(RATE_DECADES[rateDecade(rate)], label, `${rate}`);
});

describe('the report of a watched store', () => {
  let store: Store;
  let html: string;
  let plain: string;
  const now = Date.UTC(2030, 0, 1);

  before(async () => {
    store = await openStore(await buildRevisitStore(), { readonly: true });
    html = await buildReport(store, { now });
    const p = await openStore(await buildSampleStore(), { readonly: true });
    plain = await buildReport(p, { now });
    await p.close();
  });
  after(() => store.close());

  it('gathers the visits by five-minute bucket and λ̂ by decade', async () => {
    const d = await gatherReport(store, { topPages: 5, topHosts: 5, now, storePath: null });
    const r = d.revisits;
    assert.ok(r);
    assert.deepEqual(r.totals, { unchanged: 2, changed: 2, gone: 1, failed: 1 });
    assert.equal(r.pages, 2);
    assert.deepEqual(
      [r.firstVisitAt, r.lastVisitAt],
      [REVISIT_TIMES.round1, REVISIT_TIMES.round3 + 1000],
    );
    // 10 min → 2 h 0 m 1 s: 111 one-minute buckets would be too many, 23 of five fit.
    assert.equal(r.bucketMs, 5 * MIN);
    assert.equal(r.buckets.length, 23);
    assert.equal(
      r.buckets.reduce((t, b) => t + visitsIn(b), 0),
      6,
    );
    // Round 1 and round 2 each found one change and one page unchanged; round 3 a
    // page gone and a failure, which found nothing.
    assert.deepEqual(
      unchangedShares(r).map(([, share]) => share),
      [0.5, 0.5, 0],
    );
    // Home (λ̂ 0.5) is scheduled, p1 (λ̂ 3) is gone.
    assert.deepEqual(
      r.rates.map((b) => [b.label, b.scheduled, b.unscheduled, b.gone]),
      [
        ['<0.01', 0, 0, 0],
        ['0.01–0.1', 0, 0, 0],
        ['0.1–1', 1, 0, 0],
        ['1–10', 0, 0, 1],
        ['10–100', 0, 0, 0],
        ['≥100', 0, 0, 0],
      ],
    );
    assert.equal(r.unrated, 0);
  });

  it('adds a revisits section with three charts, the freshness proxy said so', () => {
    const s = sectionOf(html, 'revisits');
    assert.ok(s, 'a revisits section');
    assert.equal(charts(html), charts(plain) + 3);
    for (const title of [
      'Revisits over time, by what they found',
      'Share of revisits finding the page unchanged',
      'Change rates of the revisited pages',
    ])
      assert.ok(s.includes(`<title>${title}</title>`), title);
    assert.match(
      s,
      /6 revisits of 2 pages, 2024-05-01 12:10:00 UTC → 2024-05-01 14:00:01 UTC: 2 found a change, 2 none, 1 the page gone/,
    );
    assert.match(s, /proxy of freshness at visit time/);
    assert.match(s, /buckets of 5m/);
    for (const label of ['changed', 'unchanged', 'gone', 'failed', 'not scheduled (given up)'])
      assert.ok(s.includes(`>${label}</text>`), label);
    assert.match(s, /<text class="tick"[^>]*>0\.1–1<\/text>/);
    assert.doesNotMatch(html, /NaN|Infinity|undefined/);
    assert.doesNotMatch(html, /<script|<img|<link/i);
    // Before the ranked pages, after the states over time.
    assert.ok(html.indexOf('id="states"') < html.indexOf('id="revisits"'));
    assert.ok(html.indexOf('id="revisits"') < html.indexOf('id="ranked"'));
  });

  it('leaves the report of a store without visits as it was', async () => {
    assert.equal(sectionOf(plain, 'revisits'), '');
    assert.doesNotMatch(plain, /[Rr]evisit/);
    const p = await openStore(await buildSampleStore(), { readonly: true });
    try {
      const d = await gatherReport(p, { topPages: 5, topHosts: 5, now, storePath: null });
      assert.equal(d.revisits, null);
    } finally {
      await p.close();
    }
  });
});

describe('revisits over days in a memory store', () => {
  /** Kept pages revisited every six hours for `days` days; page i changes at every (i+1)-th visit. */
  async function watched(days: number, failAll = false): Promise<Store> {
    const s = createMemoryStore();
    const urls = Array.from({ length: 12 }, (_, i) => `http://w.test/${i}`);
    await s.addUrls(urls.map((url) => ({ url, depth: 0, priority: 1, discoveredAt: 0 })));
    await s.claim(urls.length);
    for (const url of urls)
      await s.complete(url, { fetchedAt: 0, status: 200, bytes: 1, relevance: 0.5 });
    await s.scheduleRevisits(
      urls.map((url, i) => ({ url, dueAt: 0, rate: i === 0 ? null : 10 ** ((i % 6) - 3) })),
    );
    let round = 0;
    for (let at = 6 * 3_600_000; at <= days * DAY; at += 6 * 3_600_000) {
      round++;
      const due = await s.claimDue(urls.length, { now: at });
      await s.recordVisits(
        due.map((d): VisitOutcome => {
          const i = urls.indexOf(d.url);
          if (failAll)
            return { url: d.url, at, status: null, change: 'failed', error: 'x', dueAt: at };
          const changed = round % (i + 1) === 0;
          return {
            url: d.url,
            at,
            status: changed ? 200 : 304,
            change: changed ? 'changed' : 'unchanged',
            dueAt: at,
          };
        }),
      );
    }
    return s;
  }

  it('keeps the time axis within MAX_BUCKETS and every visit counted', async () => {
    const s = await watched(20);
    const d = await gatherReport(s, { topPages: 5, topHosts: 5, now: 0, storePath: null });
    const r = d.revisits;
    assert.ok(r);
    // 6 h → 20 days: 41 buckets of twelve hours.
    assert.equal(r.bucketMs, 12 * 3_600_000);
    assert.equal(r.buckets.length, 41);
    const total = r.totals.changed + r.totals.unchanged;
    assert.equal(total, 12 * 80);
    assert.equal(
      r.buckets.reduce((t, b) => t + visitsIn(b), 0),
      total,
    );
    // λ̂ spread over the six decades (two pages each, one without an estimate).
    assert.equal(r.unrated, 1);
    assert.deepEqual(
      r.rates.map((b) => b.scheduled),
      [1, 2, 2, 2, 2, 2],
    );
    const html = await buildReport(s, { now: 0 });
    assert.match(sectionOf(html, 'revisits'), /buckets of 12h/);
    assert.match(sectionOf(html, 'revisits'), /1 page has no estimate yet and is not shown/);
    assert.doesNotMatch(html, /NaN|Infinity|undefined/);
  });

  it('says so when no revisit got an answer', async () => {
    const s = await watched(1, true);
    const html = await buildReport(s, { now: 0 });
    const sec = sectionOf(html, 'revisits');
    assert.match(sec, /No revisit got an answer yet/);
    assert.ok(!sec.includes('<title>Share of revisits finding the page unchanged</title>'));
    assert.ok(sec.includes('<title>Revisits over time, by what they found</title>'));
  });
});
