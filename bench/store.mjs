// Store benchmark: addUrls and claim+commit rates for the SQLite and memory stores,
// and a frontier of 10 million waiting URLs (insert rate, claim rate, peak RSS).
// Each measurement runs in its own process so that its peak RSS is its own.
// Build first, then run:   npx tsc -p tsconfig.build.json && node bench/store.mjs
// Options: --frontier N (default 10000000), --memory-frontier N (default 1000000),
//          --urls N (addUrls, default 200000), --cycles N (claim+commit, default 50000),
//          --rounds N (default 3), --skip-frontier
//
// Peer (bench/store-peer.mjs; `cd bench && npm install`): Crawlee's RequestQueue
// (@crawlee/cheerio, the frontier of Crawlee's crawlers) on the same URLs and pages,
// persistStorage true (one JSON file a request, beside the SQLite store) and false (beside
// the memory store). Rounds alternate focuscrawl and Crawlee; the figures are medians.
// Its claim+commit is a batch of 100 pages in flight at once, each fetchNextRequest(),
// addRequests() of the page's 36 outlinks (crawlDepth set, as enqueueLinks does),
// markRequestHandled(); a failed page gets its error message and is marked handled (a
// final failure, as focuscrawl's 'error' without retryAt); the body variant also puts the
// body into the default KeyValueStore under the request id.
// Crawlee does less: FIFO, no priorities (the known pass raises none, answered from its
// in-process cache of requests); no links table, no page record (status, title,
// relevance, hash); the body kept as it is (focuscrawl gzips it). It does more: it parses
// and normalizes every URL into a unique key (focuscrawl's store takes the URL as given),
// validates each Request, and locks each request it hands out. Both keep every URL they
// have seen; the agreement lines count the new URLs each reports, the URLs each knows at
// the end, and the pages both fetched.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};

// About 75 characters, hosts and paths spread so that the URL index fills out of order.
const urlOf = (i) =>
  `http://www.site${(i * 2654435761) % 5003}.example.com/section/${(i * 7919) % 997}/article-${i}.html`;
const indexOf = (url) => Number(/article-(\d+)\.html$/.exec(url)[1]);
const rate = (n, ms) => (n * 1000) / ms;
const mib = (kib) => kib / 1024;
const now = () => performance.now();
const cpuMs = (cpu) => (cpu.user + cpu.system) / 1000;

// One page as a crawl of a finite web sees it: 36 outlinks, all offered as new URLs
// (the store tells the known from the new): 10 navigation links shared by every
// page, 23 links to URLs found earlier, 3 URLs never seen before. Every tenth
// fetch fails; a third of the pages are discarded. `s.next` is the next new URL.
const outlinks = (s) => {
  const { next } = s;
  return [
    ...Array.from({ length: 10 }, (_, j) => urlOf(j)),
    ...Array.from({ length: 23 }, (_, j) =>
      urlOf(1_000_000 + ((next * 31 + j * 977) % (next - 999_999))),
    ),
    ...Array.from({ length: 3 }, () => urlOf(s.next++)),
  ];
};
const fateOf = (k) => (k % 10 === 9 ? 'error' : k % 3 === 0 ? 'discard' : 'complete');
const pageBody = () => {
  const para = '<p>电网 power grid market news </p><a href="/x">x</a>';
  return Buffer.from(`<html><head><title>t</title></head><body>${para.repeat(120)}</body></html>`);
};

async function open(kind, dir) {
  const { openStore, createMemoryStore } = await import('../dist/store/index.js');
  return kind === 'sqlite' ? openStore(dir, { create: true }) : createMemoryStore();
}

async function addPhase(kind, dir, n) {
  const store = await open(kind, dir);
  const batch = 1000;
  let added = 0;
  const t0 = now();
  for (let i = 0; i < n; i += batch) {
    const items = [];
    for (let j = i; j < Math.min(n, i + batch); j++) {
      items.push({ url: urlOf(j), depth: 1, priority: (j * 31) % 1000 });
    }
    added += await store.addUrls(items);
  }
  const ms = now() - t0;
  // The same URLs again: all known, priorities raised where higher.
  let again = 0;
  const t1 = now();
  for (let i = 0; i < n; i += batch) {
    const items = [];
    for (let j = i; j < Math.min(n, i + batch); j++) {
      items.push({ url: urlOf(j), depth: 1, priority: (j * 37) % 1000 });
    }
    again += await store.addUrls(items);
  }
  const ms2 = now() - t1;
  await store.close();
  return {
    'addUrls new (URLs/s)': rate(n, ms),
    'addUrls known (URLs/s)': rate(n, ms2),
    check: { added, again },
  };
}

async function cyclePhase(kind, dir, n, withBody) {
  const store = await open(kind, dir);
  await store.addSeeds(Array.from({ length: 200 }, (_, i) => urlOf(i)));
  const body = pageBody();
  const s = { next: 1_000_000 };
  const claimedUrls = [];
  let done = 0;
  const cpu0 = process.cpuUsage();
  const t0 = now();
  while (done < n) {
    const claimed = await store.claim(100);
    for (const c of claimed) claimedUrls.push(c.url);
    const outcomes = claimed.map((c, k) => {
      const fate = fateOf(k);
      if (fate === 'error') {
        return {
          url: c.url,
          state: 'error',
          result: { fetchedAt: Date.now(), error: 'FC_ERR_NETWORK' },
        };
      }
      const targets = outlinks(s);
      const links = targets.map((u, j) => ({ url: u, anchor: j % 2 ? 'link text' : null }));
      const newUrls = targets.map((u, j) => ({
        url: u,
        depth: c.depth + 1,
        priority: (j * 13 + s.next) % 100,
      }));
      return {
        url: c.url,
        state: fate,
        result: {
          fetchedAt: Date.now(),
          status: 200,
          contentType: 'text/html',
          bytes: body.length,
          title: 'A page title',
          relevance: 0.4,
          contentHash: 'd41d8cd98f00b204e9800998ecf8427e',
          links,
          newUrls,
          ...(withBody ? { body } : {}),
        },
      };
    });
    await store.commit(outcomes);
    done += claimed.length;
  }
  const ms = now() - t0;
  const counts = await store.counts();
  await store.close();
  // Every thread of the process (the body writer's gzip included), until the store closed.
  const cpu = process.cpuUsage(cpu0);
  const what = `claim+commit${withBody ? ' with a 6.7 KB body' : ''}`;
  const known = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    [`${what} (pages/s)`]: rate(done, ms),
    [`${what} (CPU ms/page)`]: cpuMs(cpu) / done,
    check: { pages: done, known, claimed: claimedUrls.map(indexOf) },
  };
}

async function frontierPhase(kind, dir, n) {
  const store = await open(kind, dir);
  const batch = 10_000;
  const t0 = now();
  let tm = t0;
  const lines = [];
  for (let i = 0; i < n; i += batch) {
    const items = [];
    for (let j = i; j < Math.min(n, i + batch); j++) {
      items.push({ url: urlOf(j), depth: 2, priority: (j * 31) % 10_000 });
    }
    await store.addUrls(items);
    if ((i + batch) % 1_000_000 === 0) {
      const t = now();
      const r = Math.round(rate(1_000_000, t - tm)).toLocaleString('en-US');
      lines.push(`  ${((i + batch) / 1e6).toFixed(0)}M: ${r} URLs/s`);
      tm = t;
    }
  }
  const insertMs = now() - t0;
  // A tenth of the frontier at most (100,000 of 10 million), so that a small one ends too.
  const claims = Math.min(100_000, Math.floor(n / 10));
  const t1 = now();
  let got = 0;
  while (got < claims) got += (await store.claim(1000)).length;
  const claimMs = now() - t1;
  const t2 = now();
  const waiting = (await store.counts()).waiting;
  const dropped = await store.trimWaiting(waiting - Math.min(100_000, Math.floor(waiting / 2)));
  const trimMs = now() - t2;
  await store.close();
  const out = {
    [`insert ${n.toLocaleString('en-US')} waiting (URLs/s)`]: rate(n, insertMs),
    'claim(1000) best-first (URLs/s)': rate(got, claimMs),
    [`trimWaiting ${dropped.toLocaleString('en-US')} (URLs/s)`]: rate(dropped, trimMs),
    'peak RSS': mib(process.resourceUsage().maxRSS),
  };
  if (kind === 'sqlite') out['crawl.db size'] = statSync(join(dir, 'crawl.db')).size / 2 ** 20;
  if (lines.length > 0) console.error(`${kind} insert rate per million:\n${lines.join('\n')}`);
  return out;
}

const PHASES = {
  add: (kind, dir, n) => addPhase(kind, dir, n),
  cycle: (kind, dir, n) => cyclePhase(kind, dir, n, false),
  'cycle-body': (kind, dir, n) => cyclePhase(kind, dir, n, true),
  frontier: (kind, dir, n) => frontierPhase(kind, dir, n),
};
const inputs = { urlOf, indexOf, outlinks, fateOf, pageBody, rate, now, cpuMs };
const PEER_PHASES = {
  add: (peer, persist, dir, n) => peer.peerAddPhase(persist, dir, n, inputs),
  cycle: (peer, persist, dir, n) => peer.peerCyclePhase(persist, dir, n, false, inputs),
  'cycle-body': (peer, persist, dir, n) => peer.peerCyclePhase(persist, dir, n, true, inputs),
};

const show = (key, v) =>
  key.includes('CPU ms')
    ? v.toFixed(3)
    : key === 'peak RSS' || key.endsWith('size')
      ? `${Math.round(v)} MiB`
      : Math.round(v).toLocaleString('en-US');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const times = (x) => `${x >= 1 ? x.toFixed(1) : x.toFixed(2)}×`;
const int = (x) => x.toLocaleString('en-US');
const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;

const phase = args.indexOf('--phase');
if (phase >= 0) {
  const [name, kind, dir, n] = args.slice(phase + 1);
  const count = Number(n);
  const result = kind.startsWith('crawlee-')
    ? await PEER_PHASES[name](await import('./store-peer.mjs'), kind === 'crawlee-disk', dir, count)
    : await PHASES[name](kind, dir, count);
  result['peak RSS'] ??= mib(process.resourceUsage().maxRSS);
  console.log(JSON.stringify(result));
} else {
  const self = fileURLToPath(import.meta.url);
  const run = (name, kind, n) => {
    const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-store-'));
    try {
      const r = spawnSync(process.execPath, [self, '--phase', name, kind, dir, String(n)], {
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
        maxBuffer: 256 * 2 ** 20,
      });
      if (r.status !== 0) throw new Error(`${name} ${kind} failed (${r.status})`);
      return JSON.parse(r.stdout.trim().split('\n').pop());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const row = (kind, name, key, v) => `${kind.padEnd(7)} ${name.padEnd(10)} ${key.padEnd(40)} ${v}`;
  let peer = true;
  try {
    await import('@crawlee/cheerio');
  } catch {
    console.log('peer @crawlee/cheerio not installed: (cd bench && npm install)');
    peer = false;
  }
  const rounds = Math.max(1, opt('rounds', 3));
  if (peer) {
    console.log(
      `medians of ${rounds} rounds, focuscrawl and Crawlee's RequestQueue alternating; ` +
        'ratio = focuscrawl ÷ Crawlee (rates: above 1× is faster; CPU, RSS: below 1× is less)',
    );
  }
  // Runs focuscrawl's `kind` and the peer's, alternating, and prints the medians.
  const measure = (name, kind, peerKind, n) => {
    const mine = [];
    const theirs = [];
    for (let i = 0; i < rounds; i++) {
      mine.push(run(name, kind, n));
      if (peer) theirs.push(run(name, peerKind, n));
    }
    for (const key of Object.keys(mine[0])) {
      if (key === 'check') continue;
      const f = median(mine.map((r) => r[key]));
      let line = show(key, f).padStart(10);
      if (peer) {
        const p = median(theirs.map((r) => r[key]));
        const cost = key.includes('CPU')
          ? " Crawlee's CPU"
          : key.includes('RSS')
            ? " Crawlee's RSS"
            : ' Crawlee';
        line += `   ${peerKind.padEnd(14)} ${show(key, p).padStart(10)}   ${times(f / p)}${cost}`;
      }
      console.log(row(kind, name, key, line));
    }
    if (!peer) return;
    // The first round's answers of the two, on the same inputs.
    const a = mine[0].check;
    const b = theirs[0].check;
    let agree;
    if (name === 'add') {
      agree =
        `new URLs ${int(a.added)} / ${int(b.added)}, on the known pass ` +
        `${int(a.again)} / ${int(b.again)}; Crawlee's unique key is the URL for ` +
        pct(b.sameKey, b.urls);
    } else {
      const theirPages = new Set(b.claimed);
      const same = a.claimed.filter((u) => theirPages.has(u)).length;
      agree =
        `pages ${int(a.pages)} / ${int(b.pages)}, URLs known at the end ` +
        `${int(a.known)} / ${int(b.known)}; the same pages fetched: ` +
        `${pct(same, a.pages)} (best-first / FIFO)`;
    }
    console.log(row(kind, name, 'agreement (focuscrawl / Crawlee)', agree));
  };
  const urls = opt('urls', 200_000);
  const cycles = opt('cycles', 50_000);
  for (const [kind, peerKind] of [
    ['sqlite', 'crawlee-disk'],
    ['memory', 'crawlee-memory'],
  ]) {
    measure('add', kind, peerKind, urls);
    measure('cycle', kind, peerKind, cycles);
    measure('cycle-body', kind, peerKind, cycles);
  }
  if (!args.includes('--skip-frontier')) {
    for (const [kind, n] of [
      ['memory', opt('memory-frontier', 1_000_000)],
      ['sqlite', opt('frontier', 10_000_000)],
    ]) {
      const res = run('frontier', kind, n);
      for (const [k, v] of Object.entries(res)) console.log(row(kind, 'frontier', k, show(k, v)));
    }
  }
}
