// Fetch + parse throughput: a fixed list of test-web pages fetched at a fixed
// concurrency by (1) a bare undici client that only downloads, (2) bare undici +
// htmlparser2 collecting hrefs (the ceilings), and (3) focuscrawl's fetcher and
// parser (robots, politeness bookkeeping, charset decoding, links with context,
// canonicalisation). Each client runs in its own process; the test web runs in
// another, sharing the machine's cores, as in a real local crawl.
//
//   npm run build && (cd bench && npm install) && node bench/fetch-parse.mjs [--pages 50000] [--concurrency 64] [--rounds 3] [--server replay|live]
//
// Prints one line per client and round, then the median pages/s and the ratios.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '50000' },
    concurrency: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    size: { type: 'string', default: 'large' },
    server: { type: 'string', default: 'replay' },
    'peer-rounds': { type: 'string', default: '1' },
    only: { type: 'string' },
    role: { type: 'string' },
    port: { type: 'string' },
  },
});
const self = fileURLToPath(import.meta.url);
const PAGES = Number(values.pages);
const CONC = Number(values.concurrency);

async function urlList() {
  const { listPageUrls } = await import('../dist/testweb/index.js');
  return listPageUrls({ seed: 1, size: values.size }, PAGES);
}

// ---------- child roles ----------
async function roleServer() {
  const { startTestWeb, pageHtml } = await import('../dist/testweb/index.js');
  const web = await startTestWeb({ port: 0, seed: 1, size: values.size, maxLogEntries: 0 });
  if (values.server === 'live') {
    process.send({ port: web.port });
    return;
  }
  // Replay: the same pages, rendered once by the test web's generator and served from
  // memory, so that the server costs little and the clients' own costs are compared.
  const { createServer, request } = await import('node:http');
  const urls = await urlList();
  const pages = new Map();
  for (const u of urls) {
    const url = new URL(u);
    pages.set(
      url.host + url.pathname + url.search,
      Buffer.from(pageHtml({ seed: 1, size: values.size }, u)),
    );
  }
  const hosts = new Set(urls.map((u) => new URL(u).host));
  const robots = new Map();
  for (const h of hosts) {
    robots.set(
      h,
      await new Promise((resolve, reject) => {
        request(
          { host: '127.0.0.1', port: web.port, path: '/robots.txt', headers: { host: h } },
          (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
          },
        )
          .on('error', reject)
          .end();
      }),
    );
  }
  await web.close();
  const html = { 'content-type': 'text/html; charset=utf-8' };
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const host = req.headers.host ?? '';
    if (req.url === '/robots.txt') {
      const r = robots.get(host) ?? { status: 404, body: Buffer.alloc(0) };
      res.writeHead(r.status, { 'content-type': 'text/plain' }).end(r.body);
      return;
    }
    const body = pages.get(host + req.url);
    if (body) res.writeHead(200, html).end(body);
    else res.writeHead(404, html).end('not found');
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

async function pump(urls, one) {
  let next = 0;
  let bytes = 0;
  let links = 0;
  let failed = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  async function worker() {
    while (next < urls.length) {
      const u = urls[next++];
      try {
        const r = await one(u);
        bytes += r.bytes;
        links += r.links;
      } catch {
        failed++;
      }
    }
  }
  await Promise.all(Array.from({ length: CONC }, worker));
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuMsPerPage = (cpu.user + cpu.system) / 1000 / urls.length;
  return { pages: urls.length, secs, bytes, links, failed, cpuMsPerPage };
}

// focuscrawl's fetcher with politeness off (the test web is ours) and no retries.
async function benchFetcher(port) {
  const { createFetcher } = await import('../dist/fetch/index.js');
  return createFetcher({
    resolve: [`*.test=127.0.0.1:${port}`],
    concurrency: CONC,
    perHostConcurrency: CONC,
    delayMs: 0,
    retries: 0,
  });
}

// GET a test-web URL through a pool to 127.0.0.1; the Host header names the virtual host.
function getVia(pool, u) {
  const url = new URL(u);
  return pool.request({
    path: url.pathname + url.search,
    method: 'GET',
    headers: { host: url.host },
  });
}

async function roleClient(kind, port) {
  const urls = await urlList();
  const undici = await import('undici');
  let one;
  let close = async () => {};
  if (kind === 'undici') {
    // One keep-alive pool to the test web; the Host header names the virtual host.
    const pool = new undici.Pool(`http://127.0.0.1:${port}`, { connections: CONC });
    close = () => pool.close();
    one = async (u) => {
      const res = await getVia(pool, u);
      const buf = Buffer.from(await res.body.arrayBuffer());
      return { bytes: buf.length, links: 0 };
    };
  } else if (kind === 'undici+htmlparser2') {
    const { Parser } = await import('htmlparser2');
    const pool = new undici.Pool(`http://127.0.0.1:${port}`, { connections: CONC });
    close = () => pool.close();
    one = async (u) => {
      const res = await getVia(pool, u);
      const text = await res.body.text();
      const hrefs = [];
      const p = new Parser({
        onopentag(name, attrs) {
          if (name === 'a' && attrs.href) hrefs.push(attrs.href);
        },
      });
      p.end(text);
      return { bytes: text.length, links: hrefs.length };
    };
  } else if (kind === 'fetcher') {
    // focuscrawl's fetcher alone (robots, politeness, decompression, byte cap): no parsing.
    const fetcher = await benchFetcher(port);
    close = () => fetcher.close();
    one = async (u) => {
      const r = await fetcher.fetch(u);
      return { bytes: r.body.length, links: 0 };
    };
  } else if (kind === 'focuscrawl') {
    const { analyzeBody } = await import('../dist/parse/index.js');
    const fetcher = await benchFetcher(port);
    close = () => fetcher.close();
    one = async (u) => {
      const r = await fetcher.fetch(u);
      const a = analyzeBody(r.body, r.contentType, r.finalUrl);
      return { bytes: r.body.length, links: a.page.links.length };
    };
  } else if (kind === 'crawlee') {
    // The peer: Crawlee's CheerioCrawler (got-scraping + cheerio), installed in bench/
    // (`cd bench && npm install`). It fetches the same list; the handler collects the
    // resolved hrefs, as a user of it would. Nothing is persisted.
    process.env.CRAWLEE_LOG_LEVEL = 'WARNING';
    const { CheerioCrawler, Configuration } = await import('@crawlee/cheerio');
    const config = new Configuration({ persistStorage: false, purgeOnStart: true });
    const requests = urls.map((u) => {
      const url = new URL(u);
      return {
        url: `http://127.0.0.1:${port}${url.pathname}${url.search}`,
        uniqueKey: u,
        headers: { host: url.host },
      };
    });
    let bytes = 0;
    let links = 0;
    let failed = 0;
    const crawler = new CheerioCrawler(
      {
        maxConcurrency: CONC,
        minConcurrency: CONC,
        maxRequestRetries: 0,
        useSessionPool: false,
        async requestHandler({ $, request, body }) {
          bytes += body.length;
          const base = request.uniqueKey;
          $('a[href]').each((_, el) => {
            try {
              new URL($(el).attr('href'), base);
              links++;
            } catch {}
          });
        },
        failedRequestHandler() {
          failed++;
        },
      },
      config,
    );
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await crawler.run(requests);
    const secs = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    process.send({
      pages: urls.length - failed,
      secs,
      bytes,
      links,
      failed,
      cpuMsPerPage: (cpu.user + cpu.system) / 1000 / urls.length,
      rssMiB: process.resourceUsage().maxRSS / 1024,
    });
    return;
  } else {
    throw new Error(`unknown client ${kind}`);
  }
  const res = await pump(urls, one);
  await close();
  res.rssMiB = process.resourceUsage().maxRSS / 1024;
  process.send(res);
}

// ---------- coordinator ----------
function child(args) {
  const cp = fork(self, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const first = new Promise((resolve, reject) => {
    cp.once('message', resolve);
    cp.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
  return { cp, first };
}

async function coordinator() {
  const server = child([
    '--role',
    'server',
    '--size',
    values.size,
    '--pages',
    String(PAGES),
    '--server',
    values.server,
  ]);
  const { port } = await server.first;
  const clients = values.only
    ? values.only.split(',')
    : ['undici', 'undici+htmlparser2', 'fetcher', 'focuscrawl', 'crawlee'];
  const results = Object.fromEntries(clients.map((c) => [c, []]));
  console.log(
    `fetch+parse: ${PAGES} pages, concurrency ${CONC}, test web size ${values.size}, port ${port}`,
  );
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const c of clients) {
      // The peer is slow: it runs in the first --peer-rounds rounds only.
      if (c === 'crawlee' && round >= Number(values['peer-rounds'])) continue;
      const args = [
        '--role',
        c,
        '--port',
        String(port),
        '--pages',
        String(PAGES),
        '--concurrency',
        String(CONC),
        '--size',
        values.size,
      ];
      const r = await child(args).first;
      const pps = r.pages / r.secs;
      results[c].push({ ...r, pps });
      console.log(
        `round ${round + 1} ${c.padEnd(20)} ${pps.toFixed(0).padStart(7)} pages/s ${(r.bytes / r.secs / 1048576).toFixed(1).padStart(6)} MB/s  links ${r.links}  failed ${r.failed}  CPU ${r.cpuMsPerPage.toFixed(3)} ms/page  peak RSS ${r.rssMiB.toFixed(0)} MiB`,
      );
    }
  }
  server.cp.kill();
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log('\nmedian pages/s:');
  const base = results['undici+htmlparser2']
    ? median(results['undici+htmlparser2'].map((r) => r.pps))
    : undefined;
  for (const c of clients) {
    const m = median(results[c].map((r) => r.pps));
    const ratio = base ? ` (${((m / base) * 100).toFixed(0)}% of undici+htmlparser2)` : '';
    const rss = median(results[c].map((r) => r.rssMiB));
    const cpu = median(results[c].map((r) => r.cpuMsPerPage));
    console.log(
      `  ${c.padEnd(20)} ${m.toFixed(0).padStart(7)} pages/s, client CPU ${cpu.toFixed(3)} ms/page, peak RSS ${rss.toFixed(0)} MiB${ratio}`,
    );
  }
}

if (values.role === 'server') await roleServer();
else if (values.role) await roleClient(values.role, Number(values.port));
else await coordinator();
