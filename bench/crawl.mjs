// Whole-crawl benchmark: the `focuscrawl crawl` command (relevance scoring, SQLite store,
// bodies kept) against Crawlee's CheerioCrawler over the same test web, from the same start
// page, with the same page budget. The test web runs in its own process; every crawler
// run in another, which measures its own wall time and peak RSS. Rounds alternate:
// focuscrawl at each --concurrency, then Crawlee (first --peer-rounds rounds), then
// the focused configuration (first --focused-rounds rounds).
//
//   npm run build && (cd bench && npm install) && node bench/crawl.mjs [--pages 50000] [--rounds 3] [--peer-rounds 2]
//
// Options:
//   --concurrency 64,256   focuscrawl's concurrencies (perHostConcurrency the same, no delay)
//   --peer-concurrency N   Crawlee's (min = max) concurrency; default: the best of --tune-peer
//   --tune-peer            run Crawlee once at each of --tune-values (16,32,64,128) and stop
//   --server replay|live   replay (default): the test web's responses, taken once at start
//                          and served from memory, so that the server takes little of the
//                          two cores the crawlers are measured on; live: the generator itself
//                          (~0.13 ms a page of server CPU, a quarter of a core at 1,500 pages/s)
//   --focused-rounds N     rounds with the extra focused row (grid topic, threshold 0.1); 0: none
//   --only focuscrawl,crawlee,focused,lean,bare
//                          bare: the least a crawler does, as a ceiling beside the peer:
//                          undici (one keep-alive pool) + htmlparser2 collecting <a href>,
//                          each resolved, kept on the topical hosts, deduplicated in a Set,
//                          first in first out; no robots.txt, no store, no scoring
//                          lean: focuscrawl without the search index, duplicate detection,
//                          sitemaps and ranking (--full-text none --no-dedup --sitemaps none
//                          --no-rank), to measure what they cost
//   --parse-threads 1,2    extra focuscrawl rows with these --parse-threads (the others run
//                          with the default, auto: none on 2 cores)
//   --crawler-cpus A/B     pin every crawler process (and its threads) to the CPUs of A
//                          (taskset -c A, e.g. 0 for one core; the server is not pinned);
//                          with A/B/…, every row runs once pinned to each, in the same round
//   --cpu-prof DIR         profile the focuscrawl children (node --cpu-prof) and print the
//                          functions with the most self time
//   --json                 machine-readable results on stdout (the report goes to stderr)
//   Each round line gives the server's own count of the requests it answered (replay).
//   --verbose              focuscrawl children print progress and memory every second
//   --node-args=...        Node options for the focuscrawl children (e.g. --node-args=--max-old-space-size=256)
import { execFileSync, fork, spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { enqueueHosts, localRoute } from './crawlee-route.mjs';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '3' },
    'peer-rounds': { type: 'string', default: '2' },
    'focused-rounds': { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '64,256' },
    // Best of `--tune-peer --pages 20000 --tune-values 16,32,64,128` on the 2-core
    // machine (140, 142, 123, 122 pages/s): Crawlee is CPU-bound at ~7 ms a page.
    'peer-concurrency': { type: 'string', default: '32' },
    'tune-peer': { type: 'boolean', default: false },
    'tune-values': { type: 'string', default: '16,32,64,128' },
    server: { type: 'string', default: 'replay' },
    size: { type: 'string', default: 'large' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
    json: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    'node-args': { type: 'string' },
    'parse-threads': { type: 'string' },
    'crawler-cpus': { type: 'string' },
    // child roles
    role: { type: 'string' },
    port: { type: 'string' },
    topic: { type: 'string' },
    threshold: { type: 'string' },
    facts: { type: 'string' },
    lean: { type: 'boolean', default: false },
    'parse-threads-one': { type: 'string' },
  },
});
const self = fileURLToPath(import.meta.url);
const PAGES = Number(values.pages);
/** The flags of the lean row (FOCUSCRAWL_LEAN_FLAGS overrides them, space-separated). */
const LEAN_FLAGS = (
  process.env.FOCUSCRAWL_LEAN_FLAGS ?? '--full-text none --no-dedup --sitemaps none --no-rank'
).split(' ');
const SIZE = values.size;
const WEB = { seed: 1, size: SIZE };
const PORTAL = 'http://portal.test/';
// Fetch + parse ceilings: the issue's figure and the foundation's measured undici+htmlparser2.
const CEILING_ISSUE = 11_000;
const CEILING_MEASURED = 3_467;
const say = values.json ? (s) => process.stderr.write(`${s}\n`) : (s) => console.log(s);

/** The hosts of the topical web (the crawl's scope, with the portal). */
async function topicalHosts() {
  const { listPageUrls } = await import('../dist/testweb/index.js');
  const hosts = new Set();
  for (const u of listPageUrls(WEB)) hosts.add(new URL(u).hostname);
  return [...hosts];
}

// ---------- the test web ----------
async function roleServer() {
  const { startTestWeb, listPageUrls } = await import('../dist/testweb/index.js');
  const web = await startTestWeb({ port: 0, seed: 1, size: SIZE, maxLogEntries: 0 });
  // The server's own count of what the crawlers asked for (replay only; null when live).
  const log = { requests: values.server === 'live' ? null : 0, robots: 0 };
  process.on('message', (m) => {
    if (m === 'cpu') process.send({ cpu: process.cpuUsage(), ...log });
  });
  if (values.server === 'live') {
    process.send({ port: web.port });
    return;
  }
  // Replay: every response a crawl of the topical web can get (pages, home pages,
  // robots.txt, about/contact, the portal), taken once from the generator and served
  // from memory. Anything else is fetched from the generator on first request and kept.
  const { createServer } = await import('node:http');
  const { Pool } = await import('undici');
  const pool = new Pool(`http://127.0.0.1:${web.port}`, { connections: 32 });
  const cache = new Map();
  const take = async (host, path) => {
    const r = await pool.request({ path, method: 'GET', headers: { host } });
    const body = Buffer.from(await r.body.arrayBuffer());
    const headers = { 'content-length': String(body.length) };
    for (const k of ['content-type', 'last-modified', 'content-encoding', 'location']) {
      const v = r.headers[k];
      if (typeof v === 'string') headers[k] = v;
    }
    const entry = { status: r.statusCode, headers, body };
    cache.set(host + path, entry);
    return entry;
  };
  const hosts = await topicalHosts();
  const todo = [['portal.test', '/']];
  for (const h of hosts) {
    for (const p of ['/', '/robots.txt', '/about.html', '/contact.html']) todo.push([h, p]);
  }
  for (const u of listPageUrls(WEB)) {
    const url = new URL(u);
    todo.push([url.hostname, url.pathname + url.search]);
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < todo.length) {
        const [h, p] = todo[next++];
        await take(h, p);
      }
    }),
  );
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    log.requests++;
    if (req.url === '/robots.txt') log.robots++;
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const hit = cache.get(host + req.url);
    const send = (e) => res.writeHead(e.status, e.headers).end(e.body);
    if (hit) send(hit);
    else take(host, req.url).then(send, () => res.writeHead(502).end());
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

// ---------- crawlers ----------
function dirBytes(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += dirBytes(p);
    else n += statSync(p).blocks * 512;
  }
  return n;
}

/**
 * What the crawlers need to know of the test web (its topical hosts, the topic's
 * keywords), worked out once by the coordinator: generating the web's URL list in a
 * crawler's process would add its garbage to the crawler's measured memory.
 */
async function writeFacts(dir) {
  const { labels } = await import('../dist/testweb/index.js');
  const topic = labels(WEB).topics.find((t) => t.id === (values.topic ?? 'grid'));
  const file = join(dir, 'facts.json');
  writeFileSync(file, JSON.stringify({ hosts: await topicalHosts(), keywords: topic.keywords }));
  return file;
}
const facts = () => JSON.parse(readFileSync(values.facts, 'utf8'));

/**
 * focuscrawl as a user runs it: the `focuscrawl crawl` command in a process of its
 * own (its crawl thread and store thread inside). The command's closing summary
 * gives the pages, the process's CPU time and its peak resident memory.
 */
async function roleFocuscrawl(port, conc) {
  const f = facts();
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const hosts = ['portal.test', ...f.hosts];
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-'));
  const topicFile = join(dir, 'topic.json');
  writeFileSync(topicFile, JSON.stringify({ keywords: f.keywords }));
  const store = join(dir, 'store');
  const args = [
    fileURLToPath(new URL('../bin/focuscrawl.js', import.meta.url)),
    'crawl',
    '--store',
    store,
    '--topic',
    topicFile,
    '--seeds',
    PORTAL,
    '--threshold',
    values.threshold ?? '0',
    '--max-pages',
    String(PAGES),
    '--scope',
    'any',
    '--include',
    `^http://(?:${hosts.map(esc).join('|')})/`,
    '--concurrency',
    String(conc),
    '--per-host-concurrency',
    String(conc),
    '--delay-ms',
    '0',
    '--resolve',
    `*.test=127.0.0.1:${port}`,
    '--allow-private',
    '--retries',
    '0',
    ...(values.verbose ? [] : ['--quiet']),
    ...(values['parse-threads-one'] ? ['--parse-threads', values['parse-threads-one']] : []),
    // The crawl without search index, duplicate detection, sitemaps and ranking.
    ...(values.lean ? LEAN_FLAGS : []),
  ];
  const t0 = performance.now();
  const cp = spawn(process.execPath, [...process.execArgv, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  cp.stdout.on('data', (d) => {
    out += d;
  });
  const code = await new Promise((resolve) => cp.on('close', resolve));
  const secs = (performance.now() - t0) / 1000;
  if (code !== 0) throw new Error(`focuscrawl crawl exited ${code}:\n${out}`);
  const m = out.match(
    /^(\S+): .*\nthis run: (\d+) fetched \((\d+) kept, (\d+) discarded, (\d+) failed(?:, \d+ redirects)?\).*; CPU ([\d.]+) s, peak memory (\d+) MiB/m,
  );
  if (!m) throw new Error(`unexpected focuscrawl output:\n${out}`);
  const pages = Number(m[2]);
  return {
    storeDir: dir,
    storeBytes: dirBytes(store),
    pages,
    complete: Number(m[3]),
    discard: Number(m[4]),
    errors: Number(m[5]),
    stopReason: m[1],
    secs,
    cpuMsPerPage: (Number(m[6]) * 1000) / Math.max(1, pages),
    rssMiB: Number(m[7]),
  };
}

/** Refuses every name lookup in this process: all traffic goes to 127.0.0.1 by address. */
async function forbidLookups() {
  const dns = await import('node:dns');
  const refuse = (host) => {
    throw new Error(`benchmark: DNS lookup of ${host} refused (127.0.0.1 only)`);
  };
  dns.default.lookup = (host) => refuse(host);
  dns.default.promises.lookup = async (host) => refuse(host);
}

/** The figures of a crawler that keeps nothing (Crawlee, the bare loop), from its start. */
function inMemoryResult(pages, failed, bytes, t0, cpu0) {
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    pages: pages + failed,
    complete: pages,
    discard: 0,
    errors: failed,
    bytes,
    stopReason: pages + failed >= PAGES ? 'max-pages' : 'exhausted',
    secs,
    cpuMsPerPage: (cpu.user + cpu.system) / 1000 / Math.max(1, pages + failed),
    storeBytes: 0,
  };
}

async function roleCrawlee(port, conc) {
  await forbidLookups();
  process.env.CRAWLEE_LOG_LEVEL = 'WARNING';
  const { CheerioCrawler, Configuration } = await import('@crawlee/cheerio');
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const allowed = new Set(['portal.test', ...facts().hosts]);
  let pages = 0;
  let bytes = 0;
  let failed = 0;
  let non200 = 0;
  const crawler = new CheerioCrawler(
    {
      maxConcurrency: conc,
      minConcurrency: conc,
      maxRequestRetries: 0,
      useSessionPool: false,
      maxRequestsPerCrawl: PAGES,
      preNavigationHooks: [localRoute(port)],
      // A plain crawl: every link of every page, on the topical web's hosts.
      async requestHandler(ctx) {
        pages++;
        if (ctx.response.statusCode !== 200) non200++;
        bytes += ctx.body.length;
        await enqueueHosts(ctx, (host) => allowed.has(host));
      },
      failedRequestHandler() {
        failed++;
      },
    },
    config,
  );
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await crawler.run([PORTAL]);
  return { ...inMemoryResult(pages, failed, bytes, t0, cpu0), non200 };
}

/**
 * The ceiling beside the peer: a crawl loop that only fetches, parses links and remembers
 * what it has seen (undici + htmlparser2, in memory, breadth first). Nothing a crawler
 * must do besides (robots.txt, politeness, relevance, a store that survives a crash) is in it.
 */
async function roleBare(port, conc) {
  const { Pool } = await import('undici');
  const { Parser } = await import('htmlparser2');
  const allowed = new Set(['portal.test', ...facts().hosts]);
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: conc });
  const seen = new Set([PORTAL]);
  const queue = [PORTAL];
  let head = 0;
  let started = 0;
  let pages = 0;
  let failed = 0;
  let bytes = 0;
  const one = async (u) => {
    const url = new URL(u);
    const res = await pool.request({
      path: url.pathname + url.search,
      method: 'GET',
      headers: { host: url.host },
    });
    const text = await res.body.text();
    bytes += text.length;
    if (res.statusCode !== 200) return;
    const p = new Parser({
      onopentag(name, attrs) {
        if (name !== 'a' || !attrs.href) return;
        let to;
        try {
          to = new URL(attrs.href, u);
        } catch {
          return;
        }
        if (to.protocol !== 'http:' || !allowed.has(to.hostname)) return;
        to.hash = '';
        const s = to.href;
        if (!seen.has(s)) {
          seen.add(s);
          queue.push(s);
        }
      },
    });
    p.end(text);
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let inFlight = 0;
  let wake = [];
  const wakeAll = () => {
    const w = wake;
    wake = [];
    for (const f of w) f();
  };
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (started < PAGES) {
        if (head === queue.length) {
          // Nothing queued: wait for a page in flight to add links, or stop when none is.
          if (inFlight === 0) break;
          await new Promise((r) => wake.push(r));
          continue;
        }
        started++;
        inFlight++;
        const u = queue[head++];
        try {
          await one(u);
          pages++;
        } catch {
          failed++;
        }
        inFlight--;
        wakeAll();
      }
      wakeAll();
    }),
  );
  const r = inMemoryResult(pages, failed, bytes, t0, cpu0);
  await pool.close();
  return r;
}

async function roleCrawler() {
  const port = Number(values.port);
  const conc = Number(values.concurrency);
  const roles = { crawlee: roleCrawlee, focuscrawl: roleFocuscrawl, bare: roleBare };
  const role = roles[values.role];
  if (!role) throw new Error(`unknown role ${values.role}`);
  const r = await role(port, conc);
  r.rssMiB ??= process.resourceUsage().maxRSS / 1024;
  process.send(r, () => process.exit(0));
}

// ---------- coordinator ----------
function child(args, execArgv = [], cpus = undefined) {
  const cp = fork(self, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  // Threads and processes started later inherit the affinity.
  if (cpus !== undefined) execFileSync('taskset', ['-a', '-cp', cpus, String(cp.pid)]);
  const first = new Promise((resolve, reject) => {
    cp.once('message', resolve);
    cp.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
  return { cp, first };
}

const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? Number.NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const fmt = (n, d = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
    : '–';
const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '–');

/** The functions with the most self time in the newest profiles of `dir`. */
function profileReport(dir, since) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).mtimeMs >= since);
  for (const f of files) {
    const prof = JSON.parse(readFileSync(f, 'utf8'));
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const self = new Map();
    let total = 0;
    for (let i = 0; i < prof.samples.length; i++) {
      const dt = prof.timeDeltas[i] ?? 0;
      const n = byId.get(prof.samples[i]);
      const cf = n.callFrame;
      const where = cf.url
        ? `${cf.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${cf.lineNumber + 1}`
        : '';
      const key = `${cf.functionName || '(anonymous)'} ${where}`;
      self.set(key, (self.get(key) ?? 0) + dt);
      total += dt;
    }
    say(`\nprofile ${f}: ${fmt(total / 1000)} ms sampled; top self time:`);
    for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
      say(
        `  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${fmt(us / 1000).padStart(7)} ms  ${k}`,
      );
    }
  }
}

async function coordinator() {
  const server = child(['--role', 'server', '--size', SIZE, '--server', values.server]);
  const { port } = await server.first;
  /** The server's CPU (ms) and its count of requests so far. */
  const serverState = () =>
    new Promise((resolve) => {
      server.cp.once('message', (m) =>
        resolve({
          cpuMs: (m.cpu.user + m.cpu.system) / 1000,
          requests: m.requests,
          robots: m.robots,
        }),
      );
      server.cp.send('cpu');
    });
  const only = values.only ? new Set(values.only.split(',')) : null;
  const want = (k) => !only || only.has(k);
  const peerConc = Number(values['peer-concurrency']);
  const rows = [];
  if (values['tune-peer']) {
    for (const c of values['tune-values'].split(',').map(Number)) {
      rows.push({ name: `crawlee c${c}`, kind: 'crawlee', conc: c, rounds: [0] });
    }
  } else {
    if (want('focuscrawl')) {
      for (const c of values.concurrency.split(',').map(Number)) {
        rows.push({ name: `focuscrawl c${c}`, kind: 'focuscrawl', conc: c, rounds: null });
      }
    }
    for (const n of values['parse-threads']?.split(',') ?? []) {
      const c = Number(values.concurrency.split(',')[0]);
      rows.push({
        name: `focuscrawl c${c} parse-threads ${n}`,
        kind: 'focuscrawl',
        conc: c,
        parseThreads: n,
        rounds: null,
      });
    }
    if (want('lean')) {
      const c = Number(values.concurrency.split(',')[0]);
      rows.push({
        name: `focuscrawl c${c} lean`,
        kind: 'focuscrawl',
        conc: c,
        lean: true,
        rounds: null,
      });
    }
    if (want('crawlee')) {
      const n = Number(values['peer-rounds']);
      rows.push({
        name: `crawlee c${peerConc}`,
        kind: 'crawlee',
        conc: peerConc,
        rounds: Array.from({ length: n }, (_, i) => i),
      });
    }
    if (want('bare')) {
      const c = Number(values.concurrency.split(',')[0]);
      rows.push({ name: `bare loop c${c}`, kind: 'bare', conc: c, rounds: null });
    }
    if (want('focused')) {
      const n = Number(values['focused-rounds']);
      const c = Number(values.concurrency.split(',')[0]);
      rows.push({
        name: `focuscrawl c${c} focused`,
        kind: 'focuscrawl',
        conc: c,
        threshold: '0.1',
        rounds: Array.from({ length: n }, (_, i) => i),
      });
    }
  }
  const cpuSets = values['crawler-cpus']?.split('/');
  if (cpuSets && cpuSets.length > 1) {
    const each = rows.splice(0);
    for (const r of each) {
      for (const c of cpuSets) rows.push({ ...r, name: `${r.name} cpus ${c}`, cpus: c });
    }
  } else if (cpuSets) {
    for (const r of rows) r.cpus = cpuSets[0];
  }
  for (const r of rows) r.results = [];
  const rounds = values['tune-peer'] ? 1 : Number(values.rounds);
  say(
    `crawl: ${fmt(PAGES)} pages from ${PORTAL} of the ${SIZE} test web (${values.server} server, port ${port}), ${rounds} round(s)`,
  );
  if (values['cpu-prof']) mkdirSync(values['cpu-prof'], { recursive: true });
  const factsDir = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-facts-'));
  const factsFile = await writeFacts(factsDir);
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      if (row.rounds && !row.rounds.includes(round)) continue;
      const args = [
        '--role',
        row.kind,
        '--port',
        String(port),
        '--pages',
        String(PAGES),
        '--concurrency',
        String(row.conc),
        '--size',
        SIZE,
        '--facts',
        factsFile,
      ];
      if (row.threshold) args.push('--threshold', row.threshold);
      if (row.lean) args.push('--lean');
      if (row.parseThreads) args.push('--parse-threads-one', row.parseThreads);
      if (values.verbose) args.push('--verbose');
      const prof = values['cpu-prof'] && row.kind === 'focuscrawl';
      const execArgv = prof ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [];
      if (row.kind === 'focuscrawl' && values['node-args']) {
        execArgv.push(...values['node-args'].split(' ').filter(Boolean));
      }
      const since = Date.now();
      const s0 = await serverState();
      const r = await child(args, execArgv, row.cpus).first;
      if (r.storeDir) rmSync(r.storeDir, { recursive: true, force: true });
      delete r.storeDir;
      const s1 = await serverState();
      r.pps = r.pages / r.secs;
      r.serverCpuShare = (s1.cpuMs - s0.cpuMs) / 1000 / r.secs;
      if (s0.requests !== null) {
        r.serverRequests = s1.requests - s0.requests;
        r.serverRobots = s1.robots - s0.robots;
      }
      r.round = round + 1;
      row.results.push(r);
      say(
        `round ${round + 1} ${row.name.padEnd(34)} ${fmt(r.pps).padStart(6)} pages/s  ${fmt(r.pages).padStart(6)} pages (${r.complete} kept, ${r.discard} discarded, ${r.errors} errors, ${r.stopReason})  ${fmt(r.secs, 1)} s  CPU ${r.cpuMsPerPage.toFixed(3)} ms/page  peak RSS ${fmt(r.rssMiB)} MiB  store ${fmt(r.storeBytes / 1048576)} MiB  server CPU ${pct(r.serverCpuShare)}${r.serverRequests === undefined ? '' : `  server log ${fmt(r.serverRequests)} requests (${fmt(r.serverRobots)} robots.txt)`}`,
      );
      if (prof) {
        await new Promise((res) => setTimeout(res, 500));
        profileReport(values['cpu-prof'], since);
      }
    }
  }
  server.cp.kill();
  rmSync(factsDir, { recursive: true, force: true });

  const summary = rows
    .filter((row) => row.results.length > 0)
    .map((row) => ({
      name: row.name,
      kind: row.kind,
      concurrency: row.conc,
      threshold: row.threshold ? Number(row.threshold) : row.kind === 'focuscrawl' ? 0 : null,
      runs: row.results.length,
      pagesPerSec: median(row.results.map((r) => r.pps)),
      peakRssMiB: median(row.results.map((r) => r.rssMiB)),
      pages: median(row.results.map((r) => r.pages)),
      storeMiB: median(row.results.map((r) => r.storeBytes / 1048576)),
      cpuMsPerPage: median(row.results.map((r) => r.cpuMsPerPage)),
      serverCpuShare: median(row.results.map((r) => r.serverCpuShare)),
      serverRequests: median(row.results.map((r) => r.serverRequests ?? Number.NaN)),
      cpus: row.cpus,
      rounds: row.results,
    }));
  // Each row against Crawlee on the same CPUs.
  const peerOf = (s) => summary.find((x) => x.kind === 'crawlee' && x.cpus === s.cpus);
  const peer = summary.find((s) => s.kind === 'crawlee');
  say(
    '\n| crawler | pages/s | peak RSS | pages crawled | store on disk | CPU/page | server CPU | pages/s vs Crawlee | RSS vs Crawlee | of 11,000 | of 3,467 |',
  );
  say('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const s of summary) {
    const p = peerOf(s);
    if (p && s !== p) {
      s.vsPeerPagesPerSec = s.pagesPerSec / p.pagesPerSec;
      s.vsPeerRss = s.peakRssMiB / p.peakRssMiB;
    }
    s.ofCeilingIssue = s.pagesPerSec / CEILING_ISSUE;
    s.ofCeilingMeasured = s.pagesPerSec / CEILING_MEASURED;
    say(
      `| ${s.name} | ${fmt(s.pagesPerSec)} | ${fmt(s.peakRssMiB)} MiB | ${fmt(s.pages)} | ${s.kind !== 'focuscrawl' ? '–' : `${fmt(s.storeMiB)} MiB`} | ${s.cpuMsPerPage.toFixed(3)} ms | ${pct(s.serverCpuShare)} | ${s.vsPeerPagesPerSec ? `${s.vsPeerPagesPerSec.toFixed(1)}×` : '–'} | ${s.vsPeerRss ? pct(s.vsPeerRss) : '–'} | ${pct(s.ofCeilingIssue)} | ${pct(s.ofCeilingMeasured)} |`,
    );
  }
  if (peer) {
    say('\ntargets: ≥ 10× Crawlee pages/s, ≤ 1/3 of its peak RSS, ≥ 25% of 11,000 pages/s');
    const judged = (x) => x.kind === 'focuscrawl' && x.threshold === 0 && x.vsPeerPagesPerSec;
    for (const s of summary.filter(judged)) {
      const ok = (b) => (b ? 'met' : 'MISSED');
      say(
        `  ${s.name}: ${s.vsPeerPagesPerSec.toFixed(1)}× (${ok(s.vsPeerPagesPerSec >= 10)}), ${pct(s.vsPeerRss)} RSS (${ok(s.vsPeerRss <= 1 / 3)}), ${pct(s.ofCeilingIssue)} of the ceiling (${ok(s.ofCeilingIssue >= 0.25)})`,
      );
    }
  }
  if (values.json) {
    console.log(
      JSON.stringify(
        {
          pages: PAGES,
          size: SIZE,
          server: values.server,
          ceilings: { issue: CEILING_ISSUE, measured: CEILING_MEASURED },
          rows: summary,
        },
        null,
        2,
      ),
    );
  }
}

if (values.role === 'server') await roleServer();
else if (values.role) await roleCrawler();
else await coordinator();
