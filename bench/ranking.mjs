// Link-ranking benchmark: PageRank (DESIGN 1.1, d = 0.8) and HITS on a generated web
// graph of 1,000,000 nodes and 10,000,000 links, with the default tolerance (1e-6) and
// iteration cap (100). Each algorithm runs in its own process so that its peak RSS is
// its own; each reports graph generation, CSR build and compute times, iterations and
// memory.
// Build first, then run:   npm run build --silent && node bench/ranking.mjs
// Options: --nodes N (default 1000000), --edges M (default 10000000), --seed S (default 1),
//          --fetched-share F (default 0.25), --rounds R (peer rounds, default 3; 0: none),
//          --peer-nodes N --peer-edges M (PageRank peer scale, default 100000 / 1000000),
//          --hits-peer-nodes N --hits-peer-edges M (HITS peer scale, default 20000 / 200000)
//
// The graph: a quarter of the nodes (--fetched-share) are pages with out-links, the
// rest dangling, like the URLs a crawl found but did not fetch. Each link picks its
// source among the fetched pages by a Zipf law over their ranks, P(rank k) ∝ k^(−2/3)
// (out-degrees with a power-law tail of exponent about 2.5: a few pages with thousands
// of links), and its target among all nodes by P(rank k) ∝ k^(−0.9) (in-degrees with
// tail exponent about 2.1, as measured on the web). Ranks are mapped to node ids by a
// multiplicative permutation, so that hubs are spread over the id range as discovery
// order spreads them. Self-links and repeated links are dropped by csrFromEdges.
//
// Peer: graphology (a Graph) with graphology-metrics (centrality/pagerank, centrality/hits),
// on the same generated edge list at a smaller scale (its graph takes about 0.5 GiB and
// 5–7 s to build per million links), in rounds alternating with focuscrawl on that same
// graph, each run in a process of its own; medians. Each side's time is split into building
// its graph from the edge list and computing.
// - Graph: graphology's is a general, mutable graph (string node keys, an object per edge
//   with an attribute bag, in- and out-adjacency); mergeEdge drops repeated links as
//   csrFromEdges does, and self-links are skipped before it (csrFromEdges drops them).
//   csrFromEdges builds an immutable array of out-links only.
// - PageRank: the same model with ranks summing to 1 instead of N; both spread the rank of
//   dangling nodes evenly over all nodes. alpha 0.8; graphology stops when Σ|Δx| < N·tol
//   with Σx = 1, so tol = 1e-6 / N is focuscrawl's Σ|ΔR|/N < 1e-6; cap 100 sweeps.
//   graphology also builds an index of the graph (its own CSR) in every call, counted in
//   its compute time, allocates a new array per sweep, reads edge weights (none here:
//   getEdgeWeight null), returns an object keyed by node, and throws when not converged.
// - HITS: the same sweep (authorities from hubs, then hubs from authorities, each divided
//   by its largest entry; normalize: false keeps that scaling; graphology starts from
//   1/N, focuscrawl from 1, the same after the first scaling). graphology stops on the
//   hubs' change alone, Σ|Δh| < tol: tol = 1e-6 · N is focuscrawl's hub test, which also
//   requires Σ|Δa|/N < 1e-6. graphology walks its graph object in every sweep (an array of
//   edge keys per node, scores in objects keyed by node), so it runs at a smaller scale.
// Agreement, on the same graph, after the peer's peak RSS is taken: distinct links of both
// graphs, sweeps each needed, and per score the largest |difference| of the scores divided
// by their maximum, Spearman's rank correlation (ties averaged) and the top-100 overlap.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const nodes = opt('nodes', 1_000_000);
const edges = opt('edges', 10_000_000);
const seed = opt('seed', 1);
const fetchedShare = opt('fetched-share', 0.25);
const rounds = opt('rounds', 3);
const peerScale = {
  pagerank: [opt('peer-nodes', 100_000), opt('peer-edges', 1_000_000)],
  hits: [opt('hits-peer-nodes', 20_000), opt('hits-peer-edges', 200_000)],
};
const TOLERANCE = 1e-6;
const MAX_ITERATIONS = 100;
const TOP = 100;

const mib = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;
const ms = (x) => `${Math.round(x).toLocaleString('en-US')} ms`;
const count = (n) => n.toLocaleString('en-US');

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A multiplier coprime with n, so that rank → (rank · p) mod n is a permutation. */
function multiplier(n) {
  const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
  for (const p of [1_000_003, 1_000_033, 1_000_037, 999_983]) if (gcd(p, n) === 1) return p;
  return 1;
}

/**
 * A sampler of ranks 0 .. n − 1 with P(k) ∝ (k + 1)^(−alpha), 0 < alpha < 1: the
 * inverse CDF of the density x^(−alpha) on [1, n + 1), floored.
 */
function zipf(n, alpha) {
  const e = 1 - alpha;
  const span = (n + 1) ** e - 1;
  return (u) => Math.min(n - 1, Math.floor((1 + u * span) ** (1 / e)) - 1);
}

function generate(n, m, s) {
  const random = prng(s);
  const p = multiplier(n);
  const source = zipf(Math.max(1, Math.round(n * fetchedShare)), 2 / 3);
  const target = zipf(n, 0.9);
  const from = new Uint32Array(m);
  const to = new Uint32Array(m);
  for (let i = 0; i < m; i++) {
    from[i] = (source(random()) * p) % n;
    to[i] = (target(random()) * p) % n;
  }
  return { from, to };
}

async function phase(algorithm) {
  const { csrEdgeCount, csrFromEdges, hits, pageRank } = await import('../dist/ranking/index.js');
  const t0 = performance.now();
  const { from, to } = generate(nodes, edges, seed);
  const t1 = performance.now();
  const graph = csrFromEdges(nodes, from, to);
  const t2 = performance.now();
  const result = algorithm === 'hits' ? hits(graph) : pageRank(graph);
  const t3 = performance.now();
  let dangling = 0;
  for (let v = 0; v < nodes; v++) if (graph.offsets[v] === graph.offsets[v + 1]) dangling++;
  const mem = process.memoryUsage();
  return {
    links: csrEdgeCount(graph),
    dangling,
    generateMs: t1 - t0,
    buildMs: t2 - t1,
    computeMs: t3 - t2,
    iterations: result.iterations,
    converged: result.converged,
    msPerIteration: (t3 - t2) / Math.max(1, result.iterations),
    heapUsed: mem.heapUsed,
    arrayBuffers: mem.arrayBuffers,
    maxRss: process.resourceUsage().maxRSS * 1024,
  };
}

/** graphology and its two centrality functions, or null when bench/ has no node_modules. */
async function loadPeer() {
  try {
    const [graphology, pagerank, hits] = await Promise.all([
      import('graphology'),
      import('graphology-metrics/centrality/pagerank.js'),
      import('graphology-metrics/centrality/hits.js'),
    ]);
    return { Graph: graphology.default, pagerank: pagerank.default, hits: hits.default };
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return null;
  }
}

/** graphology's options matching focuscrawl's defaults on a graph of n nodes (see the top). */
const peerOptions = (algorithm, n, maxIterations = MAX_ITERATIONS) =>
  algorithm === 'hits'
    ? { tolerance: TOLERANCE * n, maxIterations, normalize: false, getEdgeWeight: null }
    : { alpha: 0.8, tolerance: TOLERANCE / n, maxIterations, getEdgeWeight: null };

/** Runs graphology's algorithm; null when it throws for want of convergence. */
function runPeer(peer, algorithm, graph, maxIterations) {
  try {
    return peer[algorithm](graph, peerOptions(algorithm, graph.order, maxIterations));
  } catch (err) {
    if (/failed to converge/.test(err?.message)) return null;
    throw err;
  }
}

/** The values of a result object keyed by node 0 .. n − 1, as an array. */
const byNode = (scores, n) => Float64Array.from({ length: n }, (_, v) => scores[v]);

/** Ranks of x from 0, equal values sharing their mean rank. */
function averageRanks(x) {
  const order = Uint32Array.from({ length: x.length }, (_, i) => i).sort((i, j) => x[i] - x[j]);
  const r = new Float64Array(x.length);
  for (let i = 0; i < order.length; ) {
    let j = i + 1;
    while (j < order.length && x[order[j]] === x[order[i]]) j++;
    for (let k = i; k < j; k++) r[order[k]] = (i + j - 1) / 2;
    i = j;
  }
  return r;
}

function spearman(x, y) {
  const a = averageRanks(x);
  const b = averageRanks(y);
  const mean = (a.length - 1) / 2;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i] - mean) * (b[i] - mean);
    aa += (a[i] - mean) ** 2;
    bb += (b[i] - mean) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

const topIds = (x, k) =>
  new Set(
    Uint32Array.from({ length: x.length }, (_, i) => i)
      .sort((i, j) => x[j] - x[i])
      .subarray(0, k),
  );

/** How closely two score vectors of the same nodes agree, each divided by its maximum. */
function agreement(mine, theirs, normalizeRanks) {
  const a = normalizeRanks(mine);
  const b = normalizeRanks(theirs);
  let maxDiff = 0;
  for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
  const topA = topIds(a, TOP);
  let shared = 0;
  for (const id of topIds(b, TOP)) if (topA.has(id)) shared++;
  return { maxDiff, spearman: spearman(a, b), top: Math.min(TOP, a.length), shared };
}

/**
 * The peer's run: graphology graph from the edge list, then its algorithm; peak RSS taken
 * there. Then, outside the measurement, focuscrawl on the same edge list for agreement,
 * and with --check-sweeps the fewest sweeps graphology converges in (searched from
 * focuscrawl's count, one more full run per step).
 */
async function peerPhase(algorithm) {
  const peer = await loadPeer();
  const t0 = performance.now();
  const { from, to } = generate(nodes, edges, seed);
  const t1 = performance.now();
  const graph = new peer.Graph({ type: 'directed', multi: false, allowSelfLoops: false });
  for (let v = 0; v < nodes; v++) graph.addNode(v);
  for (let i = 0; i < edges; i++) if (from[i] !== to[i]) graph.mergeEdge(from[i], to[i]);
  const t2 = performance.now();
  const result = runPeer(peer, algorithm, graph);
  const t3 = performance.now();
  const out = {
    generateMs: t1 - t0,
    buildMs: t2 - t1,
    computeMs: t3 - t2,
    converged: result !== null,
    maxRss: process.resourceUsage().maxRSS * 1024,
    links: graph.size,
  };
  const fc = await import('../dist/ranking/index.js');
  const csr = fc.csrFromEdges(nodes, from, to);
  out.focuscrawlLinks = fc.csrEdgeCount(csr);
  const mine = algorithm === 'hits' ? fc.hits(csr) : fc.pageRank(csr);
  out.focuscrawlIterations = mine.iterations;
  if (result !== null) {
    out.agreement =
      algorithm === 'hits'
        ? {
            authorities: agreement(
              mine.authorities,
              byNode(result.authorities, nodes),
              fc.normalizeRanks,
            ),
            hubs: agreement(mine.hubs, byNode(result.hubs, nodes), fc.normalizeRanks),
          }
        : { ranks: agreement(mine.ranks, byNode(result, nodes), fc.normalizeRanks) };
    if (args.includes('--check-sweeps')) {
      const converges = (cap) => runPeer(peer, algorithm, graph, cap) !== null;
      let sweeps = Math.min(mine.iterations, MAX_ITERATIONS);
      if (converges(sweeps)) while (sweeps > 1 && converges(sweeps - 1)) sweeps--;
      else while (!converges(++sweeps));
      out.sweeps = sweeps;
    }
  }
  return out;
}

const self = fileURLToPath(import.meta.url);

/** Runs one phase in a child process; its JSON line. */
function child(algorithm, impl, n, m, extra = []) {
  const r = spawnSync(
    process.execPath,
    [self, '--phase', algorithm, '--impl', impl]
      .concat(['--nodes', String(n), '--edges', String(m), '--seed', String(seed)])
      .concat(['--fetched-share', String(fetchedShare)], extra),
    { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`${algorithm} (${impl}) failed (${r.status})`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};
const ratio = (mine, theirs, less, more) =>
  mine <= theirs
    ? `${(theirs / mine).toFixed(1)}× ${less}`
    : `${(mine / theirs).toFixed(1)}× ${more}`;
const version = (name) =>
  JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, import.meta.url))).version;

/** Alternating rounds of focuscrawl and graphology on the same graph; prints medians. */
function comparePeer(algorithm) {
  const [n, m] = peerScale[algorithm];
  const fc = [];
  const pe = [];
  for (let r = 0; r < rounds; r++) {
    fc.push(child(algorithm, 'focuscrawl', n, m));
    pe.push(child(algorithm, 'graphology', n, m, r === 0 ? ['--check-sweeps'] : []));
  }
  const label = algorithm.padEnd(9);
  const line = (k, v) => console.log(`${label} ${k.padEnd(26)} ${v}`);
  line(
    'peer scale',
    `${count(n)} nodes, ${count(m)} generated links; ${rounds} rounds alternating, medians`,
  );
  const row = (k, pick, show, less, more) => {
    const a = median(fc.map(pick));
    const b = median(pe.map(pick));
    line(
      k,
      `focuscrawl ${show(a).padStart(9)}   graphology ${show(b).padStart(9)}   ` +
        ratio(a, b, less, more),
    );
  };
  row('build graph', (x) => x.buildMs, ms, 'faster', 'slower');
  row('compute', (x) => x.computeMs, ms, 'faster', 'slower');
  row('build + compute', (x) => x.buildMs + x.computeMs, ms, 'faster', 'slower');
  row('peak RSS', (x) => x.maxRss, mib, 'less', 'more');
  const first = pe[0];
  line(
    'distinct links',
    first.links === first.focuscrawlLinks
      ? `same in both graphs (${count(first.links)})`
      : `focuscrawl ${count(first.focuscrawlLinks)}, graphology ${count(first.links)}`,
  );
  if (pe.some((x) => !x.converged)) {
    line('agreement', `graphology did not converge within ${MAX_ITERATIONS} sweeps (it throws)`);
    return;
  }
  line('sweeps', `focuscrawl ${first.focuscrawlIterations}, graphology ${first.sweeps}`);
  for (const [score, a] of Object.entries(first.agreement)) {
    line(
      `agreement (${score})`,
      `max |Δ| ${a.maxDiff.toExponential(1)} of scores ÷ max; Spearman ρ ` +
        `${a.spearman.toFixed(6)}; top ${a.top}: ${a.shared} shared`,
    );
  }
}

const at = args.indexOf('--phase');
if (at >= 0) {
  const algorithm = args[at + 1];
  const impl = args[args.indexOf('--impl') + 1];
  console.log(
    JSON.stringify(impl === 'graphology' ? await peerPhase(algorithm) : await phase(algorithm)),
  );
} else {
  console.log(
    `graph: ${count(nodes)} nodes (${fetchedShare * 100}% with out-links), ` +
      `${count(edges)} generated links (seed ${seed}); tolerance 1e-6, at most 100 sweeps`,
  );
  for (const algorithm of ['pagerank', 'hits']) {
    const x = child(algorithm, 'focuscrawl', nodes, edges);
    const rows = {
      'distinct links': count(x.links),
      'dangling nodes': count(x.dangling),
      'generate edges': ms(x.generateMs),
      'build CSR (csrFromEdges)': ms(x.buildMs),
      compute: ms(x.computeMs),
      iterations: `${x.iterations}${x.converged ? '' : ' (not converged)'}`,
      'per iteration': `${x.msPerIteration.toFixed(1)} ms`,
      'heap used': mib(x.heapUsed),
      'array buffers': mib(x.arrayBuffers),
      'peak RSS': mib(x.maxRss),
    };
    for (const [k, v] of Object.entries(rows))
      console.log(`${algorithm.padEnd(9)} ${k.padEnd(26)} ${v}`);
  }
  if (rounds > 0) {
    if ((await loadPeer()) === null) {
      console.log('peer graphology not installed: (cd bench && npm install)');
    } else {
      console.log(
        `peer: graphology ${version('graphology')} + graphology-metrics ` +
          `${version('graphology-metrics')}, same generator and seed, smaller graphs`,
      );
      for (const algorithm of ['pagerank', 'hits']) comparePeer(algorithm);
    }
  }
}
