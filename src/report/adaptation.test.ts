// The report's threshold chart and topic-vector table, from histories stored in a
// real store's meta.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SAMPLE_THRESHOLD, SAMPLE_TOPIC_HISTORY } from '../export/testing.js';
import { META_THRESHOLD, META_TOPIC } from '../relevance/history.js';
import { createMemoryStore, openStore } from '../store/index.js';
import { thresholdSteps } from './charts.js';
import { buildReport, gatherReport } from './index.js';
import { writeSyntheticCrawl } from './testing.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-report-adapt-'));
after(() => rmSync(root, { recursive: true, force: true }));

const charts = (html: string) => html.match(/<svg class="chart"/g)?.length ?? 0;
const sectionOf = (html: string, id: string) => {
  const start = html.indexOf(`<section id="${id}">`);
  return start < 0 ? '' : html.slice(start, html.indexOf('</section>', start));
};

describe('a report of a crawl whose threshold and topic vector adapted', () => {
  let html: string;

  before(async () => {
    const dir = join(root, 'adaptive');
    const w = await openStore(dir, { create: true });
    await writeSyntheticCrawl(w, { outcomes: 700 });
    await w.setMeta(META_THRESHOLD, SAMPLE_THRESHOLD);
    await w.setMeta(META_TOPIC, SAMPLE_TOPIC_HISTORY);
    await w.close();
    const r = await openStore(dir, { readonly: true });
    html = await buildReport(r, { now: Date.UTC(2030, 0, 1) });
    await r.close();
  });

  it('shows how the threshold moved in the header', () => {
    assert.match(
      html,
      /<dt>Threshold<\/dt><dd>0\.05 → 0\.1834 \(iterative, frozen, 7 changes\)<\/dd>/,
    );
  });

  it('draws the threshold as a step line over the fetches, with the changes as dots', () => {
    assert.equal(charts(html), 5);
    const s = sectionOf(html, 'threshold');
    assert.match(s, /<title>Threshold over the crawl<\/title>/);
    assert.match(s, /threshold \(iterative\)/);
    // 1 initial point + 2 per change + the end = 16 points on the step line.
    const line = /<polyline [^>]*points="([^"]*)"/.exec(s)?.[1] ?? '';
    assert.equal(line.split(' ').length, 16);
    const dots = s.match(/<circle [^>]*r="3\.5"/g)?.length ?? 0;
    assert.equal(dots, 7);
    // The latest changes, newest first.
    assert.match(s, /<h3>Latest changes<\/h3>/);
    assert.match(
      s,
      /<tr><td class="n">600<\/td><td class="n">0\.1834<\/td><td class="n">0\.1834<\/td><td>converged<\/td>/,
    );
    const table = s.slice(s.indexOf('Latest changes'));
    assert.ok(table.indexOf('converged') < table.indexOf('>0.05<'), 'newest first');
  });

  it('marks the threshold in force now on the relevance histogram', () => {
    assert.match(sectionOf(html, 'relevance'), /<text[^>]*>threshold 0\.1834<\/text>/);
  });

  it('lists the topic-vector changes with drift, added, removed and top keywords, escaped', () => {
    const s = sectionOf(html, 'topic');
    assert.match(s, /<h2>Topic vector changes<\/h2>/);
    assert.match(s, /2 re-estimations of the topic vector/);
    assert.match(s, /4 keywords now/);
    const rows = s.match(/<tr><td class="n">\d+<\/td>/g) ?? [];
    assert.equal(rows.length, 2);
    assert.match(s, /<td class="n">0\.012<\/td><td>面板, 分辨率<\/td><td>价格<\/td>/);
    assert.match(
      s,
      /<td class="n">0\.042 <i>limited<\/i><\/td><td>&lt;b&gt;液晶&lt;\/b&gt;<\/td><td>–<\/td>/,
    );
    assert.match(s, /&lt;b&gt;液晶&lt;\/b&gt; <span>0\.3125<\/span>/);
    assert.doesNotMatch(html, /<b>液晶/);
  });
});

describe('threshold and topic history edge cases', () => {
  it('without histories the report has neither section', async () => {
    const s = createMemoryStore();
    const html = await buildReport(s, { now: 0 });
    assert.doesNotMatch(html, /<section id="threshold">|<section id="topic">/);
    const d = await gatherReport(s, { topPages: 1, topHosts: 1, now: 0, storePath: null });
    assert.equal(d.threshold, null);
    assert.equal(d.topicVector, null);
  });

  it('a topic history without changes says so; a fixed threshold is a flat line', async () => {
    const s = createMemoryStore();
    await s.setMeta(META_TOPIC, { changes: [], keywords: { a: 1, b: 0.5 } });
    await s.setMeta(META_THRESHOLD, {
      kind: 'fixed',
      initial: 0.1,
      value: 0.1,
      frozen: false,
      changes: [],
    });
    const html = await buildReport(s, { now: 0 });
    assert.match(html, /The topic vector has not changed \(2 keywords\)\./);
    assert.match(html, /<dt>Threshold<\/dt><dd>0\.1 \(fixed\)<\/dd>/);
    assert.match(sectionOf(html, 'threshold'), /A fixed threshold does not move\./);
    assert.doesNotMatch(html, /NaN|Infinity|undefined/);
  });

  it('thresholdSteps: flat, a vertical step per change, flat to the last fetch', () => {
    const h = {
      kind: 'adaptive' as const,
      initial: 0.1,
      value: 0.121,
      frozen: false,
      changes: [
        { at: 0, fetched: 100, from: 0.1, to: 0.11, rule: 'alpha' },
        { at: 0, fetched: 200, from: 0.11, to: 0.121, rule: 'alpha' },
      ],
    };
    assert.deepEqual(thresholdSteps(h, 250), [
      [0, 0.1],
      [100, 0.1],
      [100, 0.11],
      [200, 0.11],
      [200, 0.121],
      [250, 0.121],
    ]);
    // A store read while the history is ahead of the stats still ends at the last change.
    assert.deepEqual(thresholdSteps(h, 150).at(-1), [200, 0.121]);
  });
});
