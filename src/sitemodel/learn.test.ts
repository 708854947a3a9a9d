// Learning a site model from synthetic sites built from HTML strings (no network).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../util/index.js';
import {
  decide,
  formatSiteModel,
  learnSiteModel,
  parseSiteModel,
  type SamplePage,
  type SiteModel,
} from './index.js';
import { HOST, itemPage, syntheticSite, userPage } from './testing.js';

const B = `https://${HOST}`;
const NOW = new Date('2024-05-01T00:00:00Z');

function summary(m: SiteModel) {
  return m.clusters.map((c) => ({
    kind: c.kind,
    decision: c.decision,
    patterns: c.patterns.map((p) =>
      p.role === 'content' ? p.pattern : `${p.pattern} → ${p.duplicateOf}`,
    ),
  }));
}

describe('learnSiteModel: a two-layout site', () => {
  // Articles under /post/<slug> and index pages /page/<n> listing them.
  const rnd = seededRandom(7);
  const WORDS =
    'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike'.split(' ');
  const say = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
  const slugs = (
    'spring-walk on-rivers why-lamps-glow copper a-long-winter-night harbor-notes ' +
    'meadow-light-in-june engines pepper-and-salt violet-hour marble-steps thunder-at-sea'
  ).split(' ');
  const frame = (body: string) =>
    `<html><body><nav><a href="/">Blog</a><a href="/page/1">Archive</a></nav>${body}<footer>Blog footer</footer></body></html>`;
  const article = (i: number) =>
    frame(
      `<article class="entry"><h1>${say(4)}</h1>` +
        `${Array.from({ length: 3 + (i % 4) }, () => `<p class="para">${say(45)}</p>`).join('')}` +
        `<ul class="tags"><li>${say(1)}</li><li>${say(1)}</li></ul></article>`,
    );
  const index = (n: number) =>
    frame(
      `<ol class="posts">${slugs
        .slice(n * 3, n * 3 + 6)
        .map(
          (s) => `<li class="item"><a href="/post/${s}">${say(3)}</a> <span>${say(2)}</span></li>`,
        )
        .join('')}</ol>`,
    );
  const sample: SamplePage[] = [
    ...slugs.map((s, i) => ({ url: `${B}/post/${s}`, status: 200, html: article(i) })),
    ...[0, 1, 2].map((n) => ({ url: `${B}/page/${n + 1}`, status: 200, html: index(n) })),
  ];
  const model = learnSiteModel(sample, { now: NOW });

  it('finds the two layouts: articles (content) and index pages (list)', () => {
    assert.deepEqual(summary(model), [
      { kind: 'content', decision: 'valid', patterns: ['/post/{w}'] },
      { kind: 'list', decision: 'valid', patterns: ['/page/{n}'] },
    ]);
    assert.match(model.sample.thresholds.layout.rule, /highest mean silhouette.*2 clusters/);
    assert.equal(model.learnedAt, '2024-05-01T00:00:00.000Z');
  });

  it('decides new URLs of both kinds valid, others unknown', () => {
    assert.equal(decide(model, `${B}/post/another-new-one`).verdict, 'valid');
    assert.equal(decide(model, `${B}/page/40`).verdict, 'valid');
    assert.equal(decide(model, `${B}/tag/x`).verdict, 'unknown');
  });
});

describe('learnSiteModel: a discussion site', () => {
  const model = learnSiteModel(syntheticSite(), { now: NOW });

  it('keeps items and lists, refuses print views, forms and empty profiles', () => {
    assert.deepEqual(summary(model), [
      { kind: 'content', decision: 'valid', patterns: ['/t/{n}'] },
      { kind: 'duplicate', decision: 'invalid', patterns: ['/print/{n} → /t/{n}'] },
      // five pages, one text: four are duplicates
      { kind: 'duplicate', decision: 'invalid', patterns: ['/form?item={n}'] },
      { kind: 'list', decision: 'valid', patterns: ['/list/{n}', '/list/{n}?page={n}'] },
      { kind: 'no-content', decision: 'invalid', patterns: ['/u/user{n}'] },
    ]);
    const [items, prints, forms, lists] = model.clusters;
    assert.deepEqual([items!.pages, items!.duplicates], [14, 0]);
    assert.deepEqual([prints!.pages, prints!.duplicates, prints!.informativeness], [6, 6, 0]);
    assert.deepEqual([forms!.pages, forms!.duplicates], [5, 4]);
    // A list below the informativeness threshold, kept for its links to the items.
    assert.ok(lists!.informativeness < model.sample.thresholds.informativeness.value);
    assert.equal(lists!.listLinks, 12);
  });

  it('reports its measured thresholds', () => {
    const t = model.sample.thresholds;
    assert.equal(t.informativeness.value, Number((2 / 32).toPrecision(4))); // 2 / N
    // The longest edge within the items (two posts against seven) and the shortest
    // between layouts (a form page and a profile page): t in the middle.
    assert.match(t.layout.rule, /between the edges 1\.714 and 3\.204 .*: 5 clusters$/);
    assert.equal(t.layout.value, Number(((1.714 + 3.204) / 2).toPrecision(4)));
  });

  it('keeps the pages of one URL pattern together, whatever their layout', () => {
    // An item removed by its author shows a notice in the layout of a profile page.
    const sample = syntheticSite();
    sample.push({
      url: `${B}/t/999`,
      status: 200,
      html: userPage(0).replace(
        /<dl.*<\/dl>/,
        '<dl class="profile"><dt>Removed</dt><dd>by its author</dd><dt>On</dt><dd>a Monday</dd></dl>',
      ),
    });
    const m = learnSiteModel(sample, { now: NOW });
    assert.match(
      m.sample.thresholds.layout.rule,
      /; 1 page moved to the cluster holding most pages of their finest URL pattern, 5 clusters left$/,
    );
    assert.deepEqual(
      m.clusters.map((c) => [c.patterns[0]!.pattern, c.pages]),
      [
        ['/t/{n}', 15],
        ['/print/{n}', 6],
        ['/form?item={n}', 5],
        ['/list/{n}', 4],
        ['/u/user{n}', 3],
      ],
    );
  });

  it('decides URLs it has not seen by their patterns', () => {
    // [path, verdict]
    const table: [string, string][] = [
      ['/t/999', 'valid'],
      ['/list/9?page=4', 'valid'],
      ['/print/999', 'invalid'],
      ['/form?item=1', 'invalid'],
      ['/u/user8', 'invalid'],
      ['/search', 'unknown'],
      ['/t/999?page=2', 'unknown'],
    ];
    for (const [path, verdict] of table)
      assert.equal(decide(model, B + path).verdict, verdict, path);
  });

  it('writes a model its own parser reads back', () => {
    assert.deepEqual(parseSiteModel(formatSiteModel(model), 'site.json'), model);
  });

  it('does not depend on the order of the sample', () => {
    const again = learnSiteModel([...syntheticSite()].reverse(), { now: NOW });
    assert.equal(formatSiteModel(again), formatSiteModel(model));
  });
});

describe('learnSiteModel: redirects and left-out pages', () => {
  const sample = syntheticSite();
  sample.push(
    { url: `${B}/go/1`, status: 200, finalUrl: `${B}/t/107`, html: itemPage(107) }, // target sampled
    { url: `${B}/go/2`, status: 200, finalUrl: `${B}/t/999`, html: itemPage(999) }, // target added
    { url: `${B}/t/5`, status: 404, html: '<p>gone</p>' },
    { url: `${B}/t/107`, status: 200, html: itemPage(107) }, // met before
    { url: `${B}/go/3`, status: 200, finalUrl: 'https://elsewhere.test/x', html: itemPage(1) },
  );
  const model = learnSiteModel(sample, { now: NOW });

  it('a redirecting pattern is a duplicate of its targets', () => {
    const items = model.clusters[0]!;
    assert.deepEqual(
      items.patterns.map((p) => [p.pattern, p.pages, p.role, p.duplicateOf]),
      [
        ['/t/{n}', 15, 'content', undefined], // 14 + /t/999, added from /go/2
        ['/go/{n}', 2, 'duplicate', '/t/{n}'],
      ],
    );
    assert.equal(decide(model, `${B}/go/77`).verdict, 'invalid');
  });

  it('counts what it left out', () => {
    assert.deepEqual(model.sample.skipped, { status: 1, invalidUrl: 0, repeated: 1, offSite: 1 });
    assert.equal(model.sample.pages, 32 + 3);
  });
});

describe('learnSiteModel: refusals', () => {
  it('refuses a sample too small, saying what was left out', () => {
    const sample = syntheticSite().slice(0, 6);
    sample.push({ url: `${B}/x`, status: 500, html: '' });
    assert.throws(() => learnSiteModel(sample), {
      name: 'LearnError',
      code: 'FC_ERR_LEARN',
      message:
        'site model: 6 usable pages in the sample, at least 10 needed (left out: 1 with an HTTP status outside 200–299)',
    });
  });

  it('refuses a sample too uniform to learn from rather than a model that refuses all', () => {
    const same = Array.from({ length: 12 }, (_, i) => ({
      url: `${B}/p/${i}`,
      status: 200,
      html: '<ul><li>Home</li><li>Help</li></ul><p>Nothing to see here.</p>',
    }));
    assert.throws(() => learnSiteModel(same), {
      name: 'LearnError',
      message: /every cluster was refused \(1 cluster: 1 duplicate; .*too uniform/,
    });
  });

  it('refuses bad options, naming them', () => {
    assert.throws(() => learnSiteModel([], { minPages: 1 }), {
      name: 'InvalidOptionError',
      message: /minPages/,
    });
    assert.throws(() => learnSiteModel([], { colour: 1 } as never), /colour/);
  });
});
