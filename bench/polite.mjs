// Polite throughput: how many requests a crawler makes in a fixed time under default
// politeness (at least 1 s between requests to one host, one connection per host), on a
// synthetic web of H hosts × 500 pages, every host's root page a seed. The ceiling is
// H hosts × T seconds ÷ 1 s = T·H requests; each crawler's requests are taken as a share
// of it. Crawlers, one after another, each in a child process with a fresh store:
//   - focuscrawl: the CLI (`focuscrawl crawl … --threshold 0 --duration 60s --quiet`),
//     every politeness and concurrency option at its default (delay 1000 ms, per-host
//     concurrency 1, concurrency 16); and the same with `--concurrency 64`;
//   - Crawlee's CheerioCrawler (`@crawlee/cheerio`, bench/package.json): sameDomainDelaySecs 1,
//     min = max concurrency 16, stopped (crawler.stop()) after T s; robots.txt not read
//     (respectRobotsTxtFile is off by default);
//   - Scrapy from Debian (python3-scrapy; skipped when missing): DownloaderAwarePriorityQueue,
//     CONCURRENT_REQUESTS_PER_DOMAIN 1, DOWNLOAD_DELAY 1 (not randomized), CONCURRENT_REQUESTS
//     16, ROBOTSTXT_OBEY, CLOSESPIDER_TIMEOUT T; routed to the server as an HTTP proxy
//     (absolute-form requests), so that its download slots stay keyed by the hN.test names.
// The server (its own process at nice -10 where allowed, node:http on 127.0.0.1) logs every
// request's arrival time; all figures come from that log: requests (robots.txt excluded,
// sitemap probes noted) within T s of the crawler's first request, pages/s, share of the
// ceiling, and the politeness check: the smallest gap between two request arrivals at one
// host, and how many gaps were below the delay (1000 ms less a 5 ms allowance). A second
// table gives the gaps below 950 ms, the server's largest event-loop delay in the run (how
// late a stamp can be), the gaps short by more than that (which late stamps cannot
// explain), and the distinct hosts each crawler asked for pages in each 10 s.
//
//   npm run build && (cd bench && npm install) && node bench/polite.mjs
//   (= npm run bench:polite, after `cd bench && npm install`)
//
// Options:
//   --hosts 40,200                    host counts H (one web per value)
//   --seconds 60                      crawl time T per crawler
//   --only focuscrawl,focuscrawl-c64,crawlee,scrapy   crawlers to run (default: all;
//                                     `focuscrawl` alone also selects the c64 row)
//   --json FILE                       every figure, machine-readable
//   --out FILE.md                     the markdown table
//   --keep-logs DIR                   keep each crawler's stdout/stderr and the server's log
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Rng } from '../dist/testweb/prng.js';
import { enqueueHosts, localRoute } from './crawlee-route.mjs';

const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: '40,200' },
    seconds: { type: 'string', default: '60' },
    only: { type: 'string' },
    json: { type: 'string' },
    out: { type: 'string' },
    'keep-logs': { type: 'string' },
    // child roles
    role: { type: 'string' },
    port: { type: 'string' },
    seeds: { type: 'string' },
  },
});
const self = fileURLToPath(import.meta.url);
const SECONDS = Number(values.seconds);
const PAGES_PER_HOST = 500;
const DELAY_MS = 1000;
const ALLOWANCE_MS = 5;
const CONCURRENCY = 16; // focuscrawl's default; Crawlee's and Scrapy's here
const HOST_RE = /^h(\d+)\.test$/;

// ---------- the synthetic web ----------
const WORDS = (
  'crawler polite delay host page link seed frontier queue fetch robots sitemap server ' +
  'request response header body title paragraph anchor topic keyword relevance score ' +
  'harvest budget window scheduler slot connection socket latency throughput ceiling ' +
  'river mountain garden library market station harbour bridge forest island valley ' +
  'morning evening winter summer quiet bright narrow ancient gentle steady careful'
).split(' ');

const pagePath = (i) => (i === 0 ? '/' : `/p/${i}.html`);

/**
 * Page i of host h (of H): a title, a paragraph of 100 words, 10 links within the host
 * (i+1, 2i+1, 2i+2: every page reachable from the root; and 7 others), 1 to another
 * host's root page.
 */
function renderPage(h, i, H) {
  const rng = new Rng(h * 7919 + i * 104729 + 1);
  const r = () => rng.next();
  const words = [];
  for (let k = 0; k < 100; k++) words.push(WORDS[Math.floor(r() * WORDS.length)]);
  const targets = [];
  for (const t of [i + 1, 2 * i + 1, 2 * i + 2]) {
    if (t < PAGES_PER_HOST && t !== i) targets.push(t);
  }
  while (targets.length < 10) {
    const t = 1 + Math.floor(r() * (PAGES_PER_HOST - 1));
    if (t !== i && !targets.includes(t)) targets.push(t);
  }
  const links = targets.map(
    (t) => `<li><a href="${pagePath(t)}">${WORDS[t % WORDS.length]} ${t}</a></li>`,
  );
  const other = H > 1 ? (h + 1 + Math.floor(r() * (H - 1))) % H : h;
  links.push(`<li><a href="http://h${other}.test/">host ${other}</a></li>`);
  const title = `h${h} page ${i}: ${words.slice(0, 4).join(' ')}`;
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>` +
    `<h1>${title}</h1><p>${words.join(' ')}.</p><ul>${links.join('')}</ul></body></html>`
  );
}

// ---------- server (own process) ----------
async function roleServer() {
  const { createServer } = await import('node:http');
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const { setPriority } = await import('node:os');
  // The log's times are arrival times as this process sees them: when it is descheduled
  // (other work on the machine), requests wait and are stamped late, in a burst. A higher
  // priority (where allowed) makes that rarer; the event loop's delay, reported with
  // each run, says by how much a stamp may be late.
  let niced = false;
  try {
    setPriority(-10);
    niced = true;
  } catch {}
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  let H = 0;
  let log = [];
  const ROBOTS = Buffer.from('User-agent: *\nAllow: /\n');
  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    const t = performance.now();
    // Origin-form (Host header) or absolute-form (a client using this server as its proxy).
    let host = req.headers.host ?? '';
    let path = req.url ?? '/';
    if (/^https?:\/\//i.test(path)) {
      const u = new URL(path);
      host = u.host;
      path = u.pathname + u.search;
    }
    host = host.replace(/:\d+$/, '').toLowerCase();
    const m = HOST_RE.exec(host);
    const h = m ? Number(m[1]) : -1;
    let status = 404;
    let body = Buffer.from('not found\n');
    let type = 'text/plain; charset=utf-8';
    if (h >= 0 && h < H) {
      if (path === '/robots.txt') {
        status = 200;
        body = ROBOTS;
      } else {
        const pm = /^\/(?:p\/(\d+)\.html)?$/.exec(path);
        const i = pm ? (pm[1] === undefined ? 0 : Number(pm[1])) : -1;
        if (i >= 0 && i < PAGES_PER_HOST && (i === 0) === (pm[1] === undefined)) {
          status = 200;
          body = Buffer.from(renderPage(h, i, H));
          type = 'text/html; charset=utf-8';
        }
      }
    }
    log.push([t, host, path, status]);
    res.writeHead(status, { 'content-type': type, 'content-length': String(body.length) });
    res.end(body);
  });
  process.on('message', (msg) => {
    if (msg.cmd === 'reset') {
      H = msg.hosts;
      log = [];
      lag.reset();
      process.send({ ok: true, niced });
    } else if (msg.cmd === 'log') {
      const ms = (ns) => Math.round(ns / 1e4) / 100;
      process.send({ log, lag: { p99Ms: ms(lag.percentile(99)), maxMs: ms(lag.max) } });
      log = [];
    }
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

// ---------- Crawlee (own process) ----------
/** Refuses every name lookup in this process: all traffic goes to 127.0.0.1 by address. */
async function forbidLookups() {
  const dns = await import('node:dns');
  const refuse = (host) => {
    throw new Error(`benchmark: DNS lookup of ${host} refused (127.0.0.1 only)`);
  };
  dns.default.lookup = (host) => refuse(host);
  dns.default.promises.lookup = async (host) => refuse(host);
}

async function roleCrawlee() {
  await forbidLookups();
  const { readFileSync } = await import('node:fs');
  const port = Number(values.port);
  process.env.CRAWLEE_LOG_LEVEL = 'WARNING';
  const { CheerioCrawler, Configuration } = await import('@crawlee/cheerio');
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const seeds = readFileSync(values.seeds, 'utf8').split('\n').filter(Boolean);
  let handled = 0;
  let failed = 0;
  const crawler = new CheerioCrawler(
    {
      sameDomainDelaySecs: 1,
      maxConcurrency: CONCURRENCY,
      minConcurrency: CONCURRENCY,
      preNavigationHooks: [localRoute(port)],
      async requestHandler(ctx) {
        handled++;
        await enqueueHosts(ctx, (host) => HOST_RE.test(host));
      },
      failedRequestHandler() {
        failed++;
      },
    },
    config,
  );
  const timer = setTimeout(() => crawler.stop(`${SECONDS} s elapsed`), SECONDS * 1000);
  await crawler.run(seeds);
  clearTimeout(timer);
  process.send({ handled, failed }, () => process.exit(0));
}

// ---------- Scrapy ----------
const PYTHON = '/usr/bin/python3';
function scrapyVersion() {
  if (!existsSync(PYTHON)) return null;
  const r = spawnSync(PYTHON, ['-c', 'import scrapy; print(scrapy.__version__)'], {
    encoding: 'utf8',
  });
  return r.status === 0 ? r.stdout.trim() : null;
}

const SPIDER = `
import os
import scrapy

PROXY = os.environ["POLITE_PROXY"]
SEEDS = [l.strip() for l in open(os.environ["POLITE_SEEDS"]) if l.strip()]


class ToBenchServer:
    """Sends every request (robots.txt too) to the benchmark's server as an HTTP proxy:
    absolute-form requests, URL and Host unchanged, so download slots stay per hN.test."""

    def process_request(self, request, spider):
        request.meta["proxy"] = PROXY


class Polite(scrapy.Spider):
    name = "polite"
    allowed_domains = ["test"]
    custom_settings = {
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.DownloaderAwarePriorityQueue",
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        "DOWNLOAD_DELAY": 1,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "CONCURRENT_REQUESTS": ${CONCURRENCY},
        "ROBOTSTXT_OBEY": True,
        "CLOSESPIDER_TIMEOUT": int(os.environ["POLITE_SECONDS"]),
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
        "DOWNLOADER_MIDDLEWARES": {"polite_spider.ToBenchServer": 100},
    }

    def start_requests(self):
        for url in SEEDS:
            yield scrapy.Request(url)

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse)
`;

// ---------- coordinator ----------
function forkChild(args) {
  const cp = fork(self, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  return cp;
}

/** Runs a child to its end (killed after T + 90 s); its output goes to `logFile`. */
function runProcess(cp, logFile) {
  let out = '';
  cp.stdout?.on('data', (d) => {
    out += d;
  });
  cp.stderr?.on('data', (d) => {
    out += d;
  });
  let message = null;
  cp.on('message', (m) => {
    message = m;
  });
  const killer = setTimeout(() => cp.kill('SIGKILL'), (SECONDS + 90) * 1000);
  return new Promise((resolve) => {
    cp.on('close', (code, signal) => {
      clearTimeout(killer);
      writeFileSync(logFile, out);
      resolve({ code, signal, out, message });
    });
  });
}

/** Figures of one crawler's run from the server's log. */
function analyse(log, H, lagMaxMs) {
  const t0 = log.length ? log[0][0] : 0;
  const end = t0 + SECONDS * 1000;
  const isRobots = (e) => e[2] === '/robots.txt';
  const isSitemap = (e) => e[2].startsWith('/sitemap');
  const inWindow = log.filter((e) => e[0] <= end);
  const reqs = inWindow.filter((e) => !isRobots(e));
  const gapsOf = (entries) => {
    const last = new Map();
    let min = Number.POSITIVE_INFINITY;
    let below = 0;
    let below50 = 0;
    let beyondLag = 0;
    let n = 0;
    for (const [t, host] of entries) {
      const p = last.get(host);
      if (p !== undefined) {
        const g = t - p;
        n++;
        if (g < min) min = g;
        if (g < DELAY_MS - ALLOWANCE_MS) below++;
        if (g < DELAY_MS - 50) below50++;
        if (g < DELAY_MS - lagMaxMs - ALLOWANCE_MS) beyondLag++;
      }
      last.set(host, t);
    }
    // gapsBelow950: the same with a 50 ms allowance. gapsBeyondLag: gaps short by more than
    // the server's largest event-loop delay of the run (plus the allowance), which a late
    // stamp cannot explain: the requests really reached the server that close together.
    return {
      minGapMs: n ? min : null,
      gapsBelowDelay: below,
      gapsBelow950: below50,
      gapsBeyondLag: beyondLag,
      gaps: n,
    };
  };
  const pageReqs = log.filter((e) => !isRobots(e));
  const distinct = new Set(reqs.map((e) => e[1] + e[2])).size;
  const hostsReached = new Set(reqs.filter((e) => !isSitemap(e)).map((e) => e[1])).size;
  // Distinct hosts asked for a page in each 10 s of the window: how widely the crawler spreads.
  const per10 = Array.from({ length: Math.ceil(SECONDS / 10) }, () => new Set());
  for (const e of reqs)
    per10[Math.min(per10.length - 1, Math.floor((e[0] - t0) / 10_000))].add(e[1]);
  const rate10 = Array.from({ length: per10.length }, () => 0);
  for (const e of reqs) rate10[Math.min(per10.length - 1, Math.floor((e[0] - t0) / 10_000))]++;
  return {
    requests: reqs.length,
    sitemapProbes: reqs.filter(isSitemap).length,
    distinctUrls: distinct,
    non200: reqs.filter((e) => e[3] !== 200 && !isSitemap(e)).length,
    robotsTxt: inWindow.filter(isRobots).length,
    afterWindow: log.filter((e) => e[0] > end && !isRobots(e)).length,
    totalRequests: pageReqs.length,
    hostsReached,
    hostsPer10s: per10.map((x) => x.size),
    requestsPer10s: rate10,
    lastRequestS: log.length ? (log[log.length - 1][0] - t0) / 1000 : 0,
    pagesPerSec: reqs.length / SECONDS,
    ceiling: SECONDS * H,
    share: reqs.length / (SECONDS * H),
    ...gapsOf(pageReqs),
    withRobots: gapsOf(log),
  };
}

const fmt = (n, d = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
    : '–';

async function coordinator() {
  const hostsList = values.hosts.split(',').map(Number);
  const only = values.only ? new Set(values.only.split(',')) : null;
  const want = (k) => !only || only.has(k) || (k === 'focuscrawl-c64' && only.has('focuscrawl'));
  const bin = fileURLToPath(new URL('../bin/focuscrawl.js', import.meta.url));
  if (!existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)))) {
    throw new Error('dist/ is missing: run `npm run build` first');
  }
  const scrapy = want('scrapy') ? scrapyVersion() : null;
  let crawleeOk = false;
  if (want('crawlee')) {
    crawleeOk = existsSync(
      fileURLToPath(new URL('node_modules/@crawlee/cheerio', import.meta.url)),
    );
    if (!crawleeOk)
      console.log('crawlee: @crawlee/cheerio is not installed (cd bench && npm install): skipped');
  }
  if (want('scrapy') && !scrapy) {
    console.log(
      `scrapy: ${PYTHON} cannot import scrapy (apt-get install -y python3-scrapy): skipped`,
    );
  }
  const scratch = values['keep-logs'] ?? mkdtempSync(join(tmpdir(), 'polite-bench-'));
  mkdirSync(scratch, { recursive: true });

  const server = fork(self, ['--role', 'server'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (msg) =>
    new Promise((resolve) => {
      server.once('message', resolve);
      server.send(msg);
    });
  const { port } = await new Promise((resolve) => server.once('message', resolve));
  const started = performance.now();
  console.log(
    `polite: ${hostsList.join(', ')} hosts × ${PAGES_PER_HOST} pages, ${SECONDS} s per crawler, server 127.0.0.1:${port}, ${cpus().length} cores` +
      (scrapy ? `, Scrapy ${scrapy}` : ''),
  );

  const crawlers = [];
  const focuscrawlArgs = (dir, extra) => {
    const topic = join(dir, 'topic.json');
    writeFileSync(topic, JSON.stringify({ keywords: { crawler: 1, polite: 1 } }));
    return [
      bin,
      'crawl',
      '--store',
      join(dir, 'store'),
      '--topic',
      topic,
      '--seeds',
      join(dir, 'seeds.txt'),
      '--threshold',
      '0',
      '--resolve',
      `*.test=127.0.0.1:${port}`,
      '--no-dns',
      '--duration',
      `${SECONDS}s`,
      '--quiet',
      ...extra,
    ];
  };
  const focusSummary = (out) => {
    const m = /^(\S+): .*\nthis run: (\d+) fetched/m.exec(out);
    return m ? `${m[2]} fetched, ${m[1]}` : '';
  };
  if (want('focuscrawl')) {
    crawlers.push({
      name: 'focuscrawl',
      run: (dir) =>
        spawn(process.execPath, focuscrawlArgs(dir, []), { stdio: ['ignore', 'pipe', 'pipe'] }),
      summary: focusSummary,
    });
  }
  if (want('focuscrawl-c64')) {
    crawlers.push({
      name: 'focuscrawl --concurrency 64',
      run: (dir) =>
        spawn(process.execPath, focuscrawlArgs(dir, ['--concurrency', '64']), {
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      summary: focusSummary,
    });
  }
  if (crawleeOk) {
    crawlers.push({
      name: `Crawlee CheerioCrawler (concurrency ${CONCURRENCY})`,
      run: (dir) =>
        forkChild([
          '--role',
          'crawlee',
          '--port',
          String(port),
          '--seeds',
          join(dir, 'seeds.txt'),
          '--seconds',
          String(SECONDS),
        ]),
      summary: (_out, msg) => (msg ? `${msg.handled} handled, ${msg.failed} failed` : ''),
    });
  }
  if (scrapy) {
    crawlers.push({
      name: `Scrapy ${scrapy}`,
      run: (dir) => {
        writeFileSync(join(dir, 'polite_spider.py'), SPIDER);
        const env = { ...process.env };
        for (const k of [
          'http_proxy',
          'HTTP_PROXY',
          'https_proxy',
          'HTTPS_PROXY',
          'no_proxy',
          'NO_PROXY',
        ])
          delete env[k];
        Object.assign(env, {
          POLITE_PROXY: `http://127.0.0.1:${port}`,
          POLITE_SEEDS: join(dir, 'seeds.txt'),
          POLITE_SECONDS: String(SECONDS),
        });
        return spawn(PYTHON, ['-m', 'scrapy', 'runspider', 'polite_spider.py'], {
          cwd: dir,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      },
      summary: (out) => {
        const reason = /'finish_reason': '([^']*)'/.exec(out)?.[1];
        const n = /'downloader\/request_count': (\d+)/.exec(out)?.[1];
        return reason ? `${n} downloads, ${reason}` : '';
      },
    });
  }

  const results = [];
  let serverNiced = false;
  for (const H of hostsList) {
    for (const c of crawlers) {
      const dir = mkdtempSync(join(tmpdir(), 'polite-run-'));
      writeFileSync(
        join(dir, 'seeds.txt'),
        `${Array.from({ length: H }, (_, h) => `http://h${h}.test/`).join('\n')}\n`,
      );
      const { niced } = await ask({ cmd: 'reset', hosts: H });
      serverNiced = niced;
      const t = performance.now();
      const slug = `${H}-${c.name.replace(/[^a-z0-9]+/gi, '-')}`;
      const r = await runProcess(c.run(dir), join(scratch, `${slug}.log`));
      const wall = (performance.now() - t) / 1000;
      const { log, lag } = await ask({ cmd: 'log' });
      if (values['keep-logs'])
        writeFileSync(join(scratch, `${slug}.requests.json`), JSON.stringify(log));
      rmSync(dir, { recursive: true, force: true });
      const a = analyse(log, H, lag.maxMs);
      const ok = r.code === 0;
      const row = {
        hosts: H,
        crawler: c.name,
        exit: ok ? 0 : (r.code ?? r.signal),
        wallSeconds: wall,
        ...a,
      };
      row.note = c.summary(r.out, r.message);
      // Other work on the machine perturbs the figures: the 1-minute load average at the end.
      row.loadAvg1 = loadavg()[0];
      row.serverLagMs = lag;
      results.push(row);
      console.log(
        `${String(H).padStart(4)} hosts  ${c.name.padEnd(38)} ${fmt(a.requests).padStart(6)} requests (${a.sitemapProbes} sitemap, ${a.robotsTxt} robots.txt, ${a.afterWindow} after ${SECONDS} s)  ${fmt(a.pagesPerSec, 1).padStart(6)} pages/s  ${(a.share * 100).toFixed(1).padStart(5)}% of ${fmt(a.ceiling)}  min gap ${a.minGapMs === null ? '–' : fmt(a.minGapMs, 1)} ms, ${a.gapsBelowDelay} below  wall ${fmt(wall, 1)} s  load ${row.loadAvg1.toFixed(1)}  server lag p99 ${lag.p99Ms} ms, max ${lag.maxMs} ms  hosts/10 s ${a.hostsPer10s.join(',')}  ${row.note}${ok ? '' : `  EXIT ${row.exit} (log: ${join(scratch, `${slug}.log`)})`}`,
      );
    }
  }
  server.kill();
  const minutes = (performance.now() - started) / 60000;

  const lines = [
    '| hosts | crawler | requests | pages/s | share of ceiling | min gap per host (ms) | gaps below delay |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const req = r.sitemapProbes
      ? `${fmt(r.requests)} (${fmt(r.sitemapProbes)} sitemap)`
      : fmt(r.requests);
    lines.push(
      `| ${r.hosts} | ${r.crawler} | ${req} | ${fmt(r.pagesPerSec, 1)} | ${(r.share * 100).toFixed(1)}% of ${fmt(r.ceiling)} | ${r.minGapMs === null ? '–' : fmt(r.minGapMs, 1)} | ${r.gapsBelowDelay} of ${fmt(r.gaps)} |`,
    );
  }
  // Politeness in detail, and how widely each crawler spread its requests over the hosts.
  const detail = [
    '| hosts | crawler | gaps below 950 ms | server event-loop delay, max | gaps below 1000 ms − that − 5 ms | distinct hosts asked per 10 s |',
    '| ---: | --- | ---: | ---: | ---: | --- |',
  ];
  for (const r of results) {
    detail.push(
      `| ${r.hosts} | ${r.crawler} | ${r.gapsBelow950} | ${fmt(r.serverLagMs.maxMs)} ms | ${r.gapsBeyondLag} | ${r.hostsPer10s.join(', ')} |`,
    );
  }
  const table = `${lines.join('\n')}\n\n${detail.join('\n')}`;
  console.log(`\n${table}\n\none full run: ${minutes.toFixed(1)} min`);
  if (values.out) writeFileSync(values.out, `${table}\n`);
  if (values.json) {
    writeFileSync(
      values.json,
      JSON.stringify(
        {
          seconds: SECONDS,
          pagesPerHost: PAGES_PER_HOST,
          delayMs: DELAY_MS,
          allowanceMs: ALLOWANCE_MS,
          cores: cpus().length,
          serverNiced,
          minutes,
          rows: results,
        },
        null,
        2,
      ),
    );
  }
  if (!values['keep-logs']) rmSync(scratch, { recursive: true, force: true });
}

if (values.role === 'server') await roleServer();
else if (values.role === 'crawlee') await roleCrawlee();
else await coordinator();
