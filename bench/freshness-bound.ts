// What revisit allocation can reach on news.test when it knows only what visits tell
// (BENCHMARKS.md, "Freshness": the bound on the 1.5× target). For the articles that exist
// at the start, at their true change rates (the test web's ground truth), it compares
// the stationary expected freshness of the changing pages (weighted by the chance that
// a page changes within the run) under uniform revisits with that of the best
// allocation of the same budget given:
// - each page's true rate (the ceiling the bench reports);
// - the outcome (changed or not) of one or three visits per page at a chosen interval,
//   taken for free, outside the budget;
// - the age Last-Modified gives at one visit (time since the last change, at most the
//   time since birth), on a third of the pages (news.test's share) or on all of them.
// The best allocation given an observation gives every page with the same observation
// the same revisit rate, chosen to maximise the expected freshness of the whole site
// under the budget (equal marginal gain, bisection on the multiplier). Pure computation:
// no server, no crawl.
//
//   node --import tsx bench/freshness-bound.ts [--seed 1] [--size large] [--days 64]
//       [--revisits-per-day 44] [--replicas 20]
import { parseArgs } from 'node:util';
import { expectedFreshness } from '../src/schedule/index.js';
import { NEWS_EPOCH_MS, newsArticles } from '../src/testweb/index.js';
import { seededRandom as rng } from '../src/util/random.js';

const { values: a } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    size: { type: 'string', default: 'large' },
    days: { type: 'string', default: '64' },
    'revisits-per-day': { type: 'string', default: '44' },
    replicas: { type: 'string', default: '20' },
  },
});
const DAY = 86_400_000;
const T = Number(a.days);
const replicas = Number(a.replicas);
const articles = newsArticles(Number(a.seed), a.size as 'large').filter(
  (x) => x.birth <= NEWS_EPOCH_MS,
);
const fbar = Number(a['revisits-per-day']) / articles.length;

interface Page {
  lambda: number;
  /** Days since birth at the start of the run. */
  age0: number;
  /** The chance it changes within the run: its weight among the changing pages. */
  weight: number;
  index: number;
}
const pages: Page[] = [];
for (let r = 0; r < replicas; r++) {
  for (const [index, x] of articles.entries()) {
    pages.push({
      lambda: x.ratePerDay,
      age0: (NEWS_EPOCH_MS - x.birth) / DAY,
      weight: x.ratePerDay === 0 ? 0 : 1 - Math.exp(-x.ratePerDay * T),
      index,
    });
  }
}
const totalWeight = pages.reduce((s, p) => s + p.weight, 0);

function changingFreshness(rate: (p: Page) => number): number {
  let s = 0;
  for (const p of pages) s += p.weight * expectedFreshness(p.lambda, rate(p));
  return s / totalWeight;
}

const GRID = [0, ...Array.from({ length: 120 }, (_, k) => (fbar / 100) * 1.08 ** k)];

/** The revisit rate per group that maximises the site's expected freshness within the budget. */
function allocate(groups: Page[][]): number[] {
  const bestFor = (g: Page[], mu: number): number => {
    let best = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const f of GRID) {
      let v = 0;
      for (const p of g) v += expectedFreshness(p.lambda, f);
      v = v / g.length - mu * f;
      if (v > bestValue) {
        bestValue = v;
        best = f;
      }
    }
    return best;
  };
  let lo = 1e-6;
  let hi = 1e4;
  for (let i = 0; i < 60; i++) {
    const mu = Math.sqrt(lo * hi);
    const spend = groups.reduce((s, g) => s + g.length * bestFor(g, mu), 0) / pages.length;
    if (spend > fbar) lo = mu;
    else hi = mu;
  }
  return groups.map((g) => bestFor(g, hi));
}

/** Freshness of the changing pages when pages with the same observation share a rate. */
function informed(observe: (p: Page) => string): number {
  const byKey = new Map<string, Page[]>();
  for (const p of pages) {
    const k = observe(p);
    const g = byKey.get(k);
    if (g === undefined) byKey.set(k, [p]);
    else g.push(p);
  }
  const groups = [...byKey.values()];
  const rates = allocate(groups);
  const rateOf = new Map<Page, number>();
  groups.forEach((g, i) => {
    for (const p of g) rateOf.set(p, rates[i] as number);
  });
  return changingFreshness((p) => rateOf.get(p) ?? 0);
}

/** Changes seen by `n` visits `tau` days apart (a visit sees whether the page changed since the last). */
function outcomes(n: number, tau: number, seed: number): (p: Page) => string {
  const draw = rng(seed);
  const seen = new Map<Page, number>();
  for (const p of pages) {
    let k = 0;
    for (let i = 0; i < n; i++) if (draw() < 1 - Math.exp(-p.lambda * tau)) k++;
    seen.set(p, k);
  }
  return (p) => String(seen.get(p));
}

/** Last-Modified's age at one visit, on log-spaced steps of ×1.5, on `share` of the pages. */
function lastModified(share: 'third' | 'all', seed: number): (p: Page) => string {
  const draw = rng(seed);
  const other = outcomes(1, 25, seed + 1);
  const key = new Map<Page, string>();
  for (const p of pages) {
    if (share === 'third' && p.index % 3 !== 0) {
      key.set(p, `o${other(p)}`);
      continue;
    }
    const sinceChange =
      p.lambda === 0 ? Number.POSITIVE_INFINITY : -Math.log(1 - draw()) / p.lambda;
    const age = Math.max(Math.min(sinceChange, p.age0), 1 / 86_400);
    key.set(p, `a${Math.round(Math.log(age) / Math.log(1.5))}${sinceChange >= p.age0 ? 'b' : ''}`);
  }
  return (p) => key.get(p) as string;
}

const uniform = changingFreshness(() => fbar);
const rows: [string, number][] = [
  ['true rates known (the ceiling)', informed((p) => String(p.lambda))],
];
for (const tau of [0.25, 1, 3, 10, 25])
  rows.push([`one visit's outcome, ${tau} days after the first`, informed(outcomes(1, tau, 11))]);
for (const tau of [1, 3, 10])
  rows.push([`three visits' outcomes, ${tau} days apart`, informed(outcomes(3, tau, 12))]);
rows.push([
  "Last-Modified's age on a third of the pages, one outcome at 25 days on the others",
  informed(lastModified('third', 13)),
]);
rows.push(["Last-Modified's age on every page", informed(lastModified('all', 14))]);

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log(
  `news.test (${a.size}, seed ${a.seed}): ${articles.length} articles at the start, ${(fbar * articles.length).toFixed(0)} revisits a simulated day (${fbar.toFixed(3)} a page), ${T} days; ${replicas} draws of each article\n`,
);
console.log('| what the allocation knows | freshness of the changing pages | against uniform |');
console.log('| --- | ---: | ---: |');
console.log(`| nothing: uniform revisits | ${pct(uniform)} | 1.00× |`);
for (const [name, f] of rows) console.log(`| ${name} | ${pct(f)} | ${(f / uniform).toFixed(2)}× |`);
