// Link-ranking benchmark: PageRank (DESIGN 1.1, d = 0.8) and HITS on a generated web
// graph of 1,000,000 nodes and 10,000,000 links, with the default tolerance (1e-6) and
// iteration cap (100). Each algorithm runs in its own process so that its peak RSS is
// its own; each reports graph generation, CSR build and compute times, iterations and
// memory.
// Build first, then run:   npm run build --silent && node bench/ranking.mjs
// Options: --nodes N (default 1000000), --edges M (default 10000000), --seed S (default 1),
//          --fetched-share F (default 0.25)
//
// The graph: a quarter of the nodes (--fetched-share) are pages with out-links, the
// rest dangling, like the URLs a crawl found but did not fetch. Each link picks its
// source among the fetched pages by a Zipf law over their ranks, P(rank k) ∝ k^(−2/3)
// (out-degrees with a power-law tail of exponent about 2.5: a few pages with thousands
// of links), and its target among all nodes by P(rank k) ∝ k^(−0.9) (in-degrees with
// tail exponent about 2.1, as measured on the web). Ranks are mapped to node ids by a
// multiplicative permutation, so that hubs are spread over the id range as discovery
// order spreads them. Self-links and repeated links are dropped by csrFromEdges.
import { spawnSync } from 'node:child_process';
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

const at = args.indexOf('--phase');
if (at >= 0) {
  console.log(JSON.stringify(await phase(args[at + 1])));
} else {
  const self = fileURLToPath(import.meta.url);
  console.log(
    `graph: ${count(nodes)} nodes (${fetchedShare * 100}% with out-links), ${count(edges)} generated links (seed ${seed}); tolerance 1e-6, at most 100 sweeps`,
  );
  for (const algorithm of ['pagerank', 'hits']) {
    const r = spawnSync(
      process.execPath,
      [self, '--phase', algorithm]
        .concat(['--nodes', String(nodes), '--edges', String(edges), '--seed', String(seed)])
        .concat(['--fetched-share', String(fetchedShare)]),
      { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`${algorithm} failed (${r.status})`);
    const x = JSON.parse(r.stdout.trim().split('\n').pop());
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
}
