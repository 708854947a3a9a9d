import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  breadthFirst,
  CROWD_LINKS,
  claimFromQueues,
  createStrategy,
  crowding,
  DEFAULT_STRATEGY_OPTIONS,
  depthFirst,
  HostDispatch,
  type ParentInfo,
  strategyByName,
  type TextScorer,
} from './index.js';

const parent = (p: Partial<ParentInfo> = {}): ParentInfo => ({
  relevance: 0,
  kept: false,
  isSeed: false,
  threshold: 0.1,
  depth: 1,
  priority: 0,
  value: 0,
  links: 10,
  ...p,
});
/** Scores text by table: anchors and contexts are named after their score. */
const scorer: TextScorer = (t) => Number(t) || 0;
const text = (anchor: number | '', context: number | '' = '') => ({
  anchor: String(anchor),
  context: String(context),
  url: 'http://a.test/',
});
const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;

test('best-first priority: 0.65 × the page standing + 0.35 × the link evidence (anchor and URL words)', () => {
  // The costs of depth and crowding are tested on their own below.
  const bf = createStrategy('best-first', { depthCost: 0, crowdCost: 0 });
  /** Scores 1 for text naming the topic word, 0 otherwise. */
  const topic: TextScorer = (t) => (/\btopic\b/.test(t) ? 1 : 0);
  const link = (anchor: string, context: string, url = 'http://a.test/page') => ({
    anchor,
    context,
    url,
  });
  // [page, anchor, context, url, priority]: standing ½ + ½·relevance when kept,
  // ½·relevance/threshold below it; evidence: the anchor with the URL's words, or half
  // the context's score when higher (in a menu the context is the neighbours').
  const cases: [Partial<ParentInfo>, string, string, string, number][] = [
    [{ kept: true, relevance: 1 }, 'topic', 'topic here', 'http://a.test/x', 1],
    [{ kept: true, relevance: 0 }, '', '', 'http://a.test/x', 0.325],
    [{ kept: true, relevance: 0.6 }, '', '', 'http://a.test/x', 0.52],
    [{ kept: true, relevance: 0.6 }, 'next', 'next', 'http://a.test/topic.html', 0.87],
    [{ kept: true, relevance: 0.6 }, 'topic', '', 'http://a.test/x', 0.87],
    [{ relevance: 0.05 }, '', 'the topic', 'http://a.test/x', 0.3375],
    [{ relevance: 0 }, '', '', 'http://a.test/x', 0],
    [{ relevance: 0.3 }, '', '', 'http://a.test/x', 0.325],
  ];
  for (const [p, anchor, context, url, expected] of cases) {
    const s = bf.link(parent(p), link(anchor, context, url), topic);
    assert.ok(
      s && near(s.priority, expected),
      `${JSON.stringify(p)} ${anchor}|${context}|${url} → ${s?.priority}`,
    );
  }
  // A kept page's links go before a discarded page's, whatever the evidence.
  const kept = bf.link(parent({ kept: true, relevance: 0.1 }), link('', ''), topic);
  const discarded = bf.link(parent({ relevance: 0.09 }), link('topic', 'topic'), topic);
  assert.ok(kept && discarded && kept.priority > discarded.priority - 0.5);
  // The more relevant of two kept pages' plain links go first (a tie-break that matters).
  const a = bf.link(parent({ kept: true, relevance: 0.7 }), link('', ''), topic);
  const b = bf.link(parent({ kept: true, relevance: 0.2 }), link('', ''), topic);
  assert.ok(a && b && a.priority > b.priority);
});

test('best-first costs: a deeper or more crowded page’s links go after an otherwise equal page’s', () => {
  // [links on the page, crowding]: tenfolds beyond 100 links (PostgreSQL's book index: 578)
  const crowd: [number, number][] = [
    [0, 0],
    [50, 0],
    [100, 0],
    [578, Math.log10(5.78)],
    [1000, 1],
    [10_000, 2],
  ];
  for (const [links, expected] of crowd) assert.ok(near(crowding(links), expected), `${links}`);
  assert.equal(CROWD_LINKS, 100);
  // The defaults: 0.005 a link of depth, 0.04 a tenfold of links beyond 100. A kept page
  // of relevance 0.6 with a plain link stands at 0.52 before costs.
  const bf = createStrategy('best-first');
  const cases: [number, number, number][] = [
    [0, 10, 0.52],
    [1, 10, 0.515],
    [4, 100, 0.5],
    [0, 1000, 0.48],
    [2, 1000, 0.47],
  ];
  for (const [depth, links, expected] of cases) {
    const s = bf.link(parent({ kept: true, relevance: 0.6, depth, links }), text(''), scorer);
    assert.ok(s && near(s.priority, expected), `depth ${depth}, ${links} links → ${s?.priority}`);
    // Loans from neighbours pay the same costs.
    assert.ok(
      near(
        bf.siblings?.priority(parent({ kept: true, relevance: 0.6, depth, links }), 0) ?? -1,
        expected,
      ),
    );
  }
  // Never below 0: a deep discarded page's plain links tie at 0, in discovery order.
  assert.equal(bf.link(parent({ relevance: 0.01, depth: 30 }), text(''), scorer)?.priority, 0);
  // 0 turns a cost off.
  const off = createStrategy('best-first', { depthCost: 0, crowdCost: 0 });
  assert.ok(
    near(
      off.link(parent({ kept: true, relevance: 0.6, depth: 9, links: 5000 }), text(''), scorer)
        ?.priority ?? -1,
      0.52,
    ),
  );
});

test('best-first explores below the threshold for exploreSteps discarded pages in a row', () => {
  const topic: TextScorer = () => 0;
  const u = { anchor: '', context: '', url: 'http://a.test/' };
  // [exploreSteps, parent kept, parent value, follows, child value]
  const cases: [number, boolean, number, boolean, number][] = [
    [2, true, 0, true, 0],
    [2, false, 0, true, 1],
    [2, false, 1, true, 2],
    [2, false, 2, false, 3],
    [0, false, 0, false, 1],
    [0, true, 5, true, 0],
  ];
  for (const [exploreSteps, kept, value, follows, child] of cases) {
    const bf = createStrategy('best-first', { exploreSteps });
    const p = parent({ kept, value });
    assert.equal(bf.follows(p), follows, `${exploreSteps} ${kept} ${value}`);
    assert.equal(bf.link(p, u, topic)?.value, child);
  }
  assert.equal(createStrategy('best-first').follows(parent({ isSeed: true, value: 9 })), true);
  assert.equal(DEFAULT_STRATEGY_OPTIONS.exploreSteps, 2);
});

test('best-first siblings: a judged page lends its relevance to its neighbours, decaying per place', () => {
  const bf = createStrategy('best-first');
  const rule = bf.siblings;
  assert.ok(rule);
  assert.equal(rule.window, DEFAULT_STRATEGY_OPTIONS.siblingWindow);
  // [relevance, distance, lent] with the default decay 0.8
  const cases: [number, number, number][] = [
    [0.5, 1, 0.5],
    [0.5, 2, 0.4],
    [0.5, 3, 0.32],
    [2, 1, 1],
    [-1, 1, 0],
  ];
  for (const [relevance, distance, lent] of cases)
    assert.ok(near(rule.lend(relevance, distance), lent), `${relevance} ${distance}`);
  // The priority is the link's, with the lent evidence in place of its own (and the
  // cost of the page's depth, 1).
  const p = parent({ kept: true, relevance: 0.6 });
  const depthCost = DEFAULT_STRATEGY_OPTIONS.depthCost;
  assert.ok(near(rule.priority(p, 0.5), 0.65 * 0.8 + 0.35 * 0.5 - depthCost));
  assert.equal(createStrategy('best-first', { siblingWindow: 0 }).siblings, undefined);
  assert.equal(createStrategy('tunnel').siblings, undefined);
});

test('bfs, dfs and the strict gate follow kept pages and seeds only', () => {
  for (const s of [
    createStrategy('best-first', { exploreSteps: 0 }),
    breadthFirst,
    depthFirst,
    createStrategy('multi-queue', { exploreSteps: 0 }),
  ]) {
    assert.equal(s.follows(parent({ kept: true })), true, s.name);
    assert.equal(s.follows(parent({ isSeed: true })), true, s.name);
    assert.equal(s.follows(parent({ value: 99 })), false, s.name);
  }
  assert.equal(breadthFirst.link(parent({ relevance: 1 }), text(1, 1), scorer)?.priority, 0);
  assert.equal(depthFirst.link(parent({ depth: 4 }), text(0), scorer)?.priority, 5);
  assert.equal(createStrategy('multi-queue').queues, DEFAULT_STRATEGY_OPTIONS.queues);
});

test('fish-search: budget resets on relevant pages, drops by one on irrelevant ones', () => {
  const fish = createStrategy('fish', { width: 3 });
  assert.equal(fish.seedValue, 3);
  // [kept, parent budget, follows, child priority, child budget]
  const cases: [boolean, number, boolean, number, number][] = [
    [true, 1, true, 1, 3],
    [false, 3, true, 0, 2],
    [false, 2, true, 0, 1],
    [false, 1, false, 0, 0],
  ];
  for (const [kept, value, follows, priority, budget] of cases) {
    const p = parent({ kept, value });
    assert.equal(fish.follows(p), follows, `kept ${kept} budget ${value}`);
    if (follows) assert.deepEqual(fish.link(p, text(0), scorer), { priority, value: budget });
  }
});

test('shark-search: inherited score and neighbourhood, worked by hand', () => {
  const shark = createStrategy('shark', {
    width: 3,
    decay: 0.5,
    anchorWeight: 0.8,
    inheritedWeight: 0.5,
  });
  // Relevant parent (relevance 0.6): inherited = 0.5·0.6 = 0.3; anchor 0.5 scores, so
  // context counts 1: neighbourhood = 0.8·0.5 + 0.2·1 = 0.6; priority = 0.5·0.3 + 0.5·0.6.
  let s = shark.link(parent({ kept: true, relevance: 0.6, value: 2.4 }), text(0.5, 0.1), scorer);
  assert.ok(s && near(s.priority, 0.45) && near(s.value, 3.3), JSON.stringify(s));
  // Irrelevant parent with budget 3 and inherited 0.3: child inherits 0.15, budget 2;
  // anchor 0 → context 0.4 counts: neighbourhood = 0.2·0.4 = 0.08; priority 0.075 + 0.04.
  s = shark.link(parent({ relevance: 0.02, value: 3.3 }), text('', 0.4), scorer);
  assert.ok(s && near(s.priority, 0.115) && near(s.value, 2.15), JSON.stringify(s));
  // The budget runs out as in fish-search.
  assert.equal(shark.follows(parent({ value: 1.15 })), false);
  assert.equal(shark.follows(parent({ value: 2.15 })), true);
  // Seeds pass on nearly their whole inherited score even when irrelevant.
  s = shark.link(parent({ isSeed: true, value: shark.seedValue }), text(''), scorer);
  assert.ok(s && s.value > 3.49 && s.value < 3.5, JSON.stringify(s));
});

test('tunnelling: Val inherited above the threshold, multiplied by r below, ordered by Val then val', () => {
  const t = createStrategy('tunnel', { seedVal: 100, tunnelFactor: 0.5, tunnelSteps: 2 });
  assert.equal(t.seedValue, 100);
  // val = best-first's: 0.5·1 (kept) + 0.5·0.2 = 0.6 ≥ 0.1 → inherits 100.
  const a = t.link(parent({ kept: true, relevance: 0.4, value: 100 }), text('', 0.2), scorer);
  assert.ok(a && near(a.value, 100) && near(a.priority, 0.999 * 0.6), JSON.stringify(a));
  // val = 0.5·0.05 + 0 = 0.025 < 0.1 → Val 50, one step down.
  const b = t.link(parent({ relevance: 0.05, value: 100 }), text('', 0), scorer);
  assert.ok(b && near(b.value, 50) && near(b.priority, -1 + 0.999 * 0.025), JSON.stringify(b));
  // Any Val-100 link outranks every Val-50 link, whatever their val.
  assert.ok(a.priority > b.priority);
  const c = t.link(parent({ relevance: 0.05, value: 100 }), text('', 0.1), scorer);
  assert.ok(c && near(c.value, 50) && c.priority > b.priority, 'same Val: higher val first');
  // Two steps allowed: 25 still queued, 12.5 dropped; irrelevant pages followed until then.
  assert.equal(t.link(parent({ value: 50 }), text(''), scorer)?.value, 25);
  assert.equal(t.link(parent({ value: 25 }), text(''), scorer), null);
  assert.equal(t.follows(parent({ value: 50 })), true);
  assert.equal(t.follows(parent({ value: 25 })), false);
  assert.equal(t.follows(parent({ value: 25, kept: true })), true);
});

test('strategies by name', () => {
  assert.equal(strategyByName('best-first')?.name, 'best-first');
  assert.equal(strategyByName('bfs'), breadthFirst);
  assert.equal(strategyByName('dfs'), depthFirst);
  assert.equal(strategyByName('tunnel')?.name, 'tunnel');
  assert.equal(strategyByName('toString'), undefined);
  assert.equal(strategyByName('bayes')?.name, 'bayes');
  assert.equal(strategyByName('pagerank')?.rescores, true);
  assert.equal(strategyByName('nope'), undefined);
});

test('host dispatch: claim order, but a busy host does not hold the slots', () => {
  const d = new HostDispatch<{ url: string }>(1);
  d.push([
    { url: 'http://a.test/1' },
    { url: 'http://a.test/2' },
    { url: 'http://b.test/1' },
    { url: 'http://c.test/1' },
  ]);
  assert.equal(d.take()?.url, 'http://a.test/1');
  assert.equal(d.take()?.url, 'http://b.test/1', 'a.test is busy: skip to b.test');
  assert.equal(d.take()?.url, 'http://c.test/1');
  assert.equal(d.take(), undefined, 'only a.test/2 is left and a.test is busy');
  d.release('http://a.test/1');
  assert.equal(d.take()?.url, 'http://a.test/2');
  assert.equal(d.size, 0);
});

test('host dispatch: per-host concurrency and drain', () => {
  const d = new HostDispatch<{ url: string }>(2);
  d.push([{ url: 'http://a.test/1' }, { url: 'http://a.test/2' }, { url: 'http://a.test/3' }]);
  assert.ok(d.take());
  assert.ok(d.take());
  assert.equal(d.take(), undefined);
  assert.deepEqual(
    d.drain().map((x) => x.url),
    ['http://a.test/3'],
  );
  assert.equal(d.size, 0);
});

test('domain diversity: k consecutive fetches from k domains while the window allows', () => {
  const d = new HostDispatch<{ url: string }>(4, 3);
  d.push([
    { url: 'http://a.test/1' },
    { url: 'http://www.a.test/2' },
    { url: 'http://a.test/3' },
    { url: 'http://b.test/1' },
    { url: 'http://b.test/2' },
    { url: 'http://c.test/1' },
  ]);
  const order = () => d.take()?.url;
  assert.equal(order(), 'http://a.test/1');
  assert.equal(order(), 'http://b.test/1', 'www.a.test is the same domain as a.test');
  assert.equal(order(), 'http://c.test/1');
  assert.equal(order(), 'http://www.a.test/2', 'a.test is no longer among the last two');
  // Only a.test and b.test are left; b.test was used longest ago of the two blocked ones.
  assert.equal(order(), 'http://b.test/2');
  assert.equal(order(), 'http://a.test/3', 'fewer domains than k: the oldest goes next');
  assert.equal(d.take(), undefined);
});

test('multi-queue claims: equal shares, interleaved, never more than asked', async () => {
  const queues = [['a1', 'a2', 'a3'], ['b1'], ['c1', 'c2', 'c3']];
  let asked: number[] = [];
  const claim = async (n: number, q?: { index: number; of: number }) => {
    if (q === undefined) {
      asked.push(-n);
      const out: string[] = [];
      for (const x of queues) out.push(...x.splice(0, n - out.length));
      return out;
    }
    asked[q.index] = n;
    return (queues[q.index] ?? []).splice(0, n);
  };
  assert.deepEqual(await claimFromQueues(claim, 6, 3), ['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  // b ran short by one: the rest came from the whole frontier (a3 in this table).
  assert.deepEqual(asked, [2, 2, 2, -1]);
  asked = [];
  // Two for three queues: one each for the first two (empty), then the whole frontier.
  assert.deepEqual(await claimFromQueues(claim, 2, 3), ['c3']);
  assert.deepEqual(asked, [1, 1, -2]);
});

test('dispatch: priority order across pushes; trim keeps the best per busy host', () => {
  const d = new HostDispatch<{ url: string; priority: number }>(1);
  d.push([
    { url: 'http://a.test/1', priority: 0.5 },
    { url: 'http://a.test/2', priority: 0.4 },
    { url: 'http://b.test/1', priority: 0.3 },
  ]);
  // A later claim's better URLs pass the earlier ones; ties keep their arrival order.
  d.push([
    { url: 'http://a.test/3', priority: 0.9 },
    { url: 'http://c.test/1', priority: 0.5 },
  ]);
  assert.equal(d.take()?.url, 'http://a.test/3');
  // a.test is busy: the best of its waiting URLs stays, the others go back.
  assert.deepEqual(
    d.trim(1).map((x) => x.url),
    ['http://a.test/2'],
  );
  assert.equal(d.take()?.url, 'http://c.test/1');
  assert.equal(d.take()?.url, 'http://b.test/1');
  assert.equal(d.take(), undefined);
  d.release('http://a.test/3');
  assert.equal(d.take()?.url, 'http://a.test/1');
});

test('dispatch priority gap: worse URLs of free hosts wait while the best host is busy', () => {
  const item = (url: string, priority: number) => ({ url, priority });
  const d = new HostDispatch<{ url: string; priority: number }>(1, 1, 0.1);
  d.push([
    item('http://a.test/1', 0.8),
    item('http://a.test/2', 0.75),
    item('http://b.test/1', 0.72),
  ]);
  d.push([item('http://c.test/1', 0.5)]);
  assert.equal(d.take()?.url, 'http://a.test/1');
  // a.test is busy; b.test's URL is within the gap of the best (0.8 running), c.test's is not.
  assert.equal(d.take()?.url, 'http://b.test/1');
  assert.equal(d.take(), undefined);
  d.release('http://a.test/1');
  d.release('http://b.test/1');
  // Links found by a fetch (not claimed yet) hold worse URLs back until their claim lands.
  d.promise(0.9);
  assert.equal(d.awaitsClaim, true);
  assert.equal(d.take(), undefined, 'a.test/2 (0.75) waits for the promised 0.9');
  d.claimStarted();
  assert.equal(d.take(), undefined, 'still waiting while the claim is under way');
  d.claimLanded();
  d.push([item('http://d.test/1', 0.9)]);
  assert.equal(d.awaitsClaim, false);
  assert.equal(d.take()?.url, 'http://d.test/1');
  assert.equal(d.take(), undefined, 'a.test/2 (0.75) is beyond the gap of 0.9 running');
  d.release('http://d.test/1');
  // Nothing running or promised: the head starts whatever its priority.
  assert.equal(d.take()?.url, 'http://a.test/2');
  assert.equal(d.take(), undefined, 'c.test (0.5) is beyond the gap of 0.75 running');
  d.release('http://a.test/2');
  assert.equal(d.take()?.url, 'http://c.test/1');
  // A promise no claim can keep (the page budget is spent) is forgotten.
  d.promise(0.99);
  assert.equal(d.awaitsClaim, true);
  d.forgetPromise();
  assert.equal(d.awaitsClaim, false);
  // Without a gap, every free host fetches and promises change nothing.
  const open = new HostDispatch<{ url: string; priority: number }>(1);
  open.push([item('http://a.test/1', 0.9), item('http://b.test/1', 0.1)]);
  open.promise(1);
  assert.equal(open.awaitsClaim, false);
  assert.deepEqual([open.take()?.url, open.take()?.url], ['http://a.test/1', 'http://b.test/1']);
});

test('dispatch priority gap: a busy host’s URLs sent back to the store still hold worse URLs back', () => {
  // Regression: on real sites the best host's URLs went back to the store while its
  // fetch ran; when that fetch ended (finding no new link), the dispatch saw only other
  // hosts' worse URLs, nothing running or promised, and started them, so a crawl
  // sometimes left the topic's site for every other site's home page.
  const item = (url: string, priority: number) => ({ url, priority });
  const d = new HostDispatch<{ url: string; priority: number }>(1, 1, 0);
  d.push([
    item('http://a.test/1', 0.8),
    item('http://a.test/2', 0.7),
    item('http://a.test/3', 0.6),
  ]);
  d.push([item('http://b.test/1', 0.4)]);
  assert.equal(d.take()?.url, 'http://a.test/1');
  assert.deepEqual(
    d.trim(0).map((x) => x.url),
    ['http://a.test/2', 'http://a.test/3'],
  );
  assert.equal(d.awaitsClaim, false, 'a.test is busy: claiming would only bring them back');
  assert.equal(d.take(), undefined);
  d.release('http://a.test/1');
  // a.test is free: its URLs in the store beat b.test's, so they are claimed first.
  assert.equal(d.awaitsClaim, true);
  assert.equal(d.take(), undefined, 'b.test (0.4) waits for a.test’s 0.7');
  d.claimStarted();
  d.claimLanded();
  d.push([item('http://a.test/2', 0.7), item('http://a.test/3', 0.6)]);
  assert.equal(d.take()?.url, 'http://a.test/2');
  // Spent budget: nothing more will be claimed, so nothing is waited for.
  d.trim(0);
  d.forgetPromise();
  d.release('http://a.test/2');
  assert.equal(d.awaitsClaim, false);
});

test('dispatch with a host schedule: a host in its delay is passed over, and says when it is due', () => {
  const item = (url: string, priority: number) => ({ url, priority });
  let now = 1_000;
  const due = new Map([['a.test', 1_500]]);
  const d = new HostDispatch<{ url: string; priority: number }>(1, 1, Number.POSITIVE_INFINITY, {
    readyAt: (host) => due.get(host) ?? Number.NEGATIVE_INFINITY,
    now: () => now,
  });
  d.push([
    item('http://a.test/1', 0.9),
    item('http://b.test/1', 0.5),
    item('http://b.test/2', 0.4),
  ]);
  // a.test waits out its delay in the queue; b.test, ready, goes first.
  assert.equal(d.take()?.url, 'http://b.test/1');
  assert.equal(d.take(), undefined);
  assert.equal(d.nextReadyAt, 1_500);
  assert.equal(d.hostsHold, true, 'only the hosts hold the URLs here back');
  assert.deepEqual(d.hostsWithAtLeast(1).sort(), ['a.test', 'b.test']);
  now = 1_500;
  assert.equal(d.take()?.url, 'http://a.test/1');
  assert.equal(d.nextReadyAt, Number.POSITIVE_INFINITY);
  // Under a priority gap, a worse URL of a ready host waits for a better one in its delay.
  const g = new HostDispatch<{ url: string; priority: number }>(1, 1, 0, {
    readyAt: (host) => (host === 'a.test' ? 2_000 : Number.NEGATIVE_INFINITY),
    now: () => now,
  });
  g.push([item('http://a.test/1', 0.9), item('http://b.test/1', 0.5)]);
  g.push([item('http://c.test/1', 0.95)]);
  assert.equal(g.take()?.url, 'http://c.test/1');
  assert.equal(g.take(), undefined, 'b.test (0.5) waits for a.test (0.9)');
  assert.equal(g.hostsHold, false, 'the priority floor holds it, not the hosts');
});
