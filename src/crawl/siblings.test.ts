import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createStrategy, type ParentInfo } from '../frontier/index.js';
import { SeenUrls } from './seen.js';
import { aboveBaseline, hostBaseline, SiblingLinks } from './siblings.js';

const parent: ParentInfo = {
  relevance: 0.6,
  kept: true,
  isSeed: false,
  threshold: 0.1,
  depth: 0,
  priority: 1,
  value: 0,
  links: 9,
};
// A window of 3 places, to see the decay (the default lends to the next place only).
const rule = createStrategy('best-first', { siblingWindow: 3 }).siblings;
const u = (i: number) => `http://a.test/${i}`;
const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;

/** The links of `page`, every one sent (with its evidence's priority) and recorded. */
function sendList(
  seen: SeenUrls,
  siblings: SiblingLinks,
  page: string,
  links: { url: string; evidence: number }[],
) {
  for (const l of links) {
    seen.sent(l.url);
    seen.addChecked(rule?.priority(parent, l.evidence));
  }
  siblings.record(page, parent, 1, 0, links, new Set(links.map((l) => l.url)));
}

/** A table of contents of 9 entries, all sent with evidence 0 except entry 6 (0.9). */
function toc(seen: SeenUrls, siblings: SiblingLinks, page = 'http://a.test/toc') {
  const links = Array.from({ length: 9 }, (_, i) => ({ url: u(i), evidence: i === 6 ? 0.9 : 0 }));
  sendList(seen, siblings, page, links);
}

test('a judged page raises its neighbours on the page that linked it, nearest most', () => {
  assert.ok(rule);
  const seen = new SeenUrls();
  const siblings = new SiblingLinks(rule, seen);
  toc(seen, siblings);
  seen.claimed(u(4));
  seen.claimed(u(3));
  const sent = siblings.lend(u(4), 0.5, true, 7);
  // Entry 3 is claimed (never sent again); entry 6 had better evidence of its own.
  const got = Object.fromEntries(sent.map((n) => [n.url, n.priority]));
  assert.deepEqual(Object.keys(got).sort(), [u(1), u(2), u(5), u(7)].sort());
  const p = (evidence: number) => rule.priority(parent, evidence);
  assert.ok(near(got[u(5)] as number, p(0.5)));
  assert.ok(near(got[u(2)] as number, p(0.4)));
  assert.ok(near(got[u(7)] as number, p(0.32)));
  assert.ok(near(got[u(1)] as number, p(0.32)));
  for (const n of sent) {
    assert.equal(n.depth, 1);
    assert.equal(n.discoveredAt, 7);
  }
  // A page lends once; a less relevant neighbour lends nothing that is not better.
  assert.deepEqual(siblings.lend(u(4), 0.5, true, 8), []);
  seen.claimed(u(5));
  // From entry 5 (relevance 0.3): 4 and 3 are claimed, 6 and 7 and 2 hold more than
  // 0.3, 0.24 and 0.192; only entry 8 (0) rises, to 0.3 × 0.8².
  const again = siblings.lend(u(5), 0.3, true, 9);
  assert.deepEqual(
    again.map((n) => n.url),
    [u(8)],
  );
  assert.ok(near(again[0]?.priority as number, p(0.3 * 0.64)));
});

test('syntax diagrams linked from a command page do not walk each other forward: loans only on a page of their directory', () => {
  assert.ok(rule);
  // SQLite's CREATE TABLE page (the root directory) links its syntax diagrams in syntax/:
  // judged, one diagram lends nothing to the next, however relevant.
  const seen = new SeenUrls();
  const siblings = new SiblingLinks(rule, seen);
  const diagram = (i: number) => `http://a.test/syntax/${i}.html`;
  const links = Array.from({ length: 5 }, (_, i) => ({ url: diagram(i), evidence: 0 }));
  sendList(seen, siblings, 'http://a.test/lang_createtable.html', links);
  seen.claimed(diagram(2));
  assert.deepEqual(siblings.lend(diagram(2), 0.9, true, 1), []);
  // The same list on a page of syntax/ (its own table of contents) lends.
  sendList(seen, siblings, 'http://a.test/syntax/index.html', links);
  seen.claimed(diagram(3));
  assert.deepEqual(
    siblings
      .lend(diagram(3), 0.9, true, 2)
      .map((n) => n.url)
      .sort(),
    [diagram(0), diagram(1), diagram(4)].sort(),
  );
});

test('unknown pages lend nothing, and memory stays under its bound', () => {
  assert.ok(rule);
  const seen = new SeenUrls();
  const siblings = new SiblingLinks(rule, seen, 20);
  assert.deepEqual(siblings.lend('http://elsewhere.test/', 1, true, 0), []);
  toc(seen, siblings, 'http://a.test/p1');
  toc(seen, siblings, 'http://a.test/p2');
  assert.equal(siblings.size, 18);
  // A third page's links push out the oldest page's.
  const more = Array.from({ length: 5 }, (_, i) => ({ url: `http://b.test/${i}`, evidence: 0 }));
  siblings.record('http://b.test/', parent, 1, 0, more, new Set());
  assert.equal(siblings.size, 14);
  // Links not sent by a page do not lend through it.
  assert.deepEqual(siblings.lend('http://b.test/2', 1, true, 0), []);
});

test('a host whose raised pages are discarded more often than its others stops lending', () => {
  assert.ok(rule);
  const seen = new SeenUrls();
  const siblings = new SiblingLinks(rule, seen);
  toc(seen, siblings);
  assert.equal(siblings.trust('a.test'), 1);
  // Entry 4 lends to 2, 3, 5, 6 (not 6: its own evidence is higher), 1 and 7.
  seen.claimed(u(4));
  const raised = siblings.lend(u(4), 0.5, true, 1).map((n) => n.url);
  assert.ok(raised.includes(u(3)) && raised.includes(u(5)));
  // Other pages of the host are kept; the raised ones turn out discarded.
  for (let i = 0; i < 6; i++) siblings.lend(`http://a.test/other-${i}`, 0.5, true, 2);
  for (const url of [u(3), u(5)]) {
    seen.claimed(url);
    siblings.lend(url, 0.01, false, 3);
  }
  // Kept shares with two kept in advance: raised (0 + 2) / (2 + 2) = 0.5, others
  // (7 + 2) / (7 + 2) = 1: the shortfall of 0.5 leaves no trust.
  assert.equal(siblings.trust('a.test'), 0);
  seen.claimed(u(2));
  assert.deepEqual(siblings.lend(u(2), 0.9, true, 4), []);
  // Links in another directory neither lend nor receive.
  const dirs = new SiblingLinks(rule, new SeenUrls());
  const links = ['http://b.test/x/1', 'http://b.test/y/2', 'http://b.test/x/3'].map((url) => ({
    url,
    evidence: 0,
  }));
  dirs.record('http://b.test/x/', parent, 1, 0, links, new Set(links.map((l) => l.url)));
  assert.deepEqual(
    dirs.lend('http://b.test/x/1', 0.5, true, 0).map((n) => n.url),
    ['http://b.test/x/3'],
  );
});

test('hostBaseline: the lowest of the last pages, 0 below five; aboveBaseline rescales', () => {
  const cases: [number[], number][] = [
    [[], 0],
    [[0.5, 0.5, 0.5, 0.5], 0],
    [[0.21, 0.21, 0.68, 0.4, 0.21], 0.21],
    [[0.9, 0.45, 0.5, 0.6, 0.7, 0.55, 0.6, 0.5, 0.8], 0.45],
    [[0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.6, 0.4, 0.8], 0.1],
  ];
  for (const [recent, want] of cases) assert.equal(hostBaseline(recent), want, String(recent));
  const rows: [number, number, number][] = [
    [0.68, 0.2, 0.6],
    [0.2, 0.2, 0],
    [0.1, 0.2, 0],
    [0.5, 0, 0.5],
    [1.5, 0.5, 1],
    [0.9, 1, 0],
  ];
  for (const [rel, base, want] of rows)
    assert.ok(near(aboveBaseline(rel, base), want), `${rel} ${base}`);
});

// PostgreSQL's manual names the product on every page, so every page scored about
// 0.21 and was kept: each lent 0.21 to its neighbour, and the loans walked down the
// whole list of data types ahead of the topic's own chapter.
test('a page no more relevant than its host’s ordinary page lends nothing', () => {
  assert.ok(rule);
  const seen = new SeenUrls();
  const siblings = new SiblingLinks(rule, seen);
  toc(seen, siblings);
  for (let i = 0; i < 6; i++) siblings.lend(`http://a.test/other-${i}`, 0.21, true, 1);
  seen.claimed(u(4));
  assert.deepEqual(siblings.lend(u(4), 0.21, true, 2), []);
  // One well above it lends what it exceeds the baseline by, rescaled.
  seen.claimed(u(2));
  const got = siblings.lend(u(2), 0.6, true, 3);
  const want = rule.priority(parent, (0.6 - 0.21) / 0.79);
  assert.ok(near(got.find((n) => n.url === u(1))?.priority as number, want));
});
