// Fetch + parse throughput: a fixed list of test-web pages fetched at a fixed
// concurrency by (1) a bare undici client that only downloads, (2) bare undici +
// htmlparser2 collecting hrefs (the ceilings), and (3) focuscrawl's fetcher and
// parser (robots, politeness bookkeeping, charset decoding, links with context,
// canonicalisation). Each client runs in its own process; the test web runs in
// another, sharing the machine's cores, as in a real local crawl.
//
//   npm run build && node bench/fetch-parse.mjs [--pages 50000] [--concurrency 64] [--rounds 3]
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
  const { startTestWeb } = await import('../dist/testweb/index.js');
  const web = await startTestWeb({ port: 0, seed: 1, size: values.size, maxLogEntries: 0 });
  process.send({ port: web.port });
}

async function pump(urls, one) {
  let next = 0;
  let bytes = 0;
  let links = 0;
  let failed = 0;
  const t0 = performance.now();
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
  return { pages: urls.length, secs, bytes, links, failed };
}

function bareDispatcher(undici, port) {
  return new undici.Agent({
    connections: CONC,
    pipelining: 1,
    connect: { host: '127.0.0.1', port },
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
      const url = new URL(u);
      const res = await pool.request({
        path: url.pathname + url.search,
        method: 'GET',
        headers: { host: url.host },
      });
      const buf = Buffer.from(await res.body.arrayBuffer());
      return { bytes: buf.length, links: 0 };
    };
  } else if (kind === 'undici+htmlparser2') {
    const { Parser } = await import('htmlparser2');
    const pool = new undici.Pool(`http://127.0.0.1:${port}`, { connections: CONC });
    close = () => pool.close();
    one = async (u) => {
      const url = new URL(u);
      const res = await pool.request({
        path: url.pathname + url.search,
        method: 'GET',
        headers: { host: url.host },
      });
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
  } else if (kind === 'focuscrawl') {
    const { createFetcher, decodeBody } = await import('../dist/fetch/index.js');
    const { parseHtml } = await import('../dist/parse/index.js');
    const fetcher = createFetcher({
      resolve: [`*.test=127.0.0.1:${port}`],
      concurrency: CONC,
      perHostConcurrency: CONC,
      delayMs: 0,
      retries: 0,
    });
    close = () => fetcher.close();
    one = async (u) => {
      const r = await fetcher.fetch(u);
      const d = decodeBody(r.body, r.contentType);
      const page = parseHtml(d.text, r.finalUrl);
      return { bytes: r.body.length, links: page.links.length };
    };
  } else {
    throw new Error(`unknown client ${kind}`);
  }
  void bareDispatcher;
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
  const server = child(['--role', 'server', '--size', values.size]);
  const { port } = await server.first;
  const clients = values.only
    ? values.only.split(',')
    : ['undici', 'undici+htmlparser2', 'focuscrawl'];
  const results = Object.fromEntries(clients.map((c) => [c, []]));
  console.log(
    `fetch+parse: ${PAGES} pages, concurrency ${CONC}, test web size ${values.size}, port ${port}`,
  );
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const c of clients) {
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
        `round ${round + 1} ${c.padEnd(20)} ${pps.toFixed(0).padStart(7)} pages/s ${(r.bytes / r.secs / 1048576).toFixed(1).padStart(6)} MB/s  links ${r.links}  failed ${r.failed}  peak RSS ${r.rssMiB.toFixed(0)} MiB`,
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
    console.log(
      `  ${c.padEnd(20)} ${m.toFixed(0).padStart(7)} pages/s, peak RSS ${rss.toFixed(0)} MiB${ratio}`,
    );
  }
}

if (values.role === 'server') await roleServer();
else if (values.role) await roleClient(values.role, Number(values.port));
else await coordinator();
