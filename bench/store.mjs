// Store benchmark: addUrls and claim+commit rates for the SQLite and memory stores,
// and a frontier of 10 million waiting URLs (insert rate, claim rate, peak RSS).
// Each measurement runs in its own process so that its peak RSS is its own.
// Build first, then run:   npx tsc -p tsconfig.build.json && node bench/store.mjs
// Options: --frontier N (default 10000000), --memory-frontier N (default 1000000),
//          --urls N (addUrls, default 200000), --cycles N (claim+commit, default 50000)
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
const rate = (n, ms) => Math.round((n * 1000) / ms).toLocaleString('en-US');
const mib = (kib) => `${Math.round(kib / 1024)} MiB`;
const now = () => performance.now();

async function open(kind, dir) {
  const { openStore, createMemoryStore } = await import('../dist/store/index.js');
  return kind === 'sqlite' ? openStore(dir, { create: true }) : createMemoryStore();
}

async function addPhase(kind, dir, n) {
  const store = await open(kind, dir);
  const batch = 1000;
  const t0 = now();
  for (let i = 0; i < n; i += batch) {
    const items = [];
    for (let j = i; j < Math.min(n, i + batch); j++) {
      items.push({ url: urlOf(j), depth: 1, priority: (j * 31) % 1000 });
    }
    await store.addUrls(items);
  }
  const ms = now() - t0;
  // The same URLs again: all known, priorities raised where higher.
  const t1 = now();
  for (let i = 0; i < n; i += batch) {
    const items = [];
    for (let j = i; j < Math.min(n, i + batch); j++) {
      items.push({ url: urlOf(j), depth: 1, priority: (j * 37) % 1000 });
    }
    await store.addUrls(items);
  }
  const ms2 = now() - t1;
  await store.close();
  return { 'addUrls new (URLs/s)': rate(n, ms), 'addUrls known (URLs/s)': rate(n, ms2) };
}

// One page as a crawl of a finite web sees it: 36 outlinks, all offered as new URLs
// (the store tells the known from the new): 10 navigation links shared by every
// page, 23 links to URLs found earlier, 3 URLs never seen before. Every tenth
// fetch fails; a third of the pages are discarded.
async function cyclePhase(kind, dir, n, withBody) {
  const store = await open(kind, dir);
  await store.addSeeds(Array.from({ length: 200 }, (_, i) => urlOf(i)));
  const body = Buffer.from(
    `<html><head><title>t</title></head><body>${'<p>电网 power grid market news </p><a href="/x">x</a>'.repeat(120)}</body></html>`,
  );
  let next = 1_000_000;
  let done = 0;
  const cpu0 = process.cpuUsage();
  const t0 = now();
  while (done < n) {
    const claimed = await store.claim(100);
    const outcomes = claimed.map((c, k) => {
      if (k % 10 === 9) {
        return {
          url: c.url,
          state: 'error',
          result: { fetchedAt: Date.now(), error: 'FC_ERR_NETWORK' },
        };
      }
      const targets = [
        ...Array.from({ length: 10 }, (_, j) => urlOf(j)),
        ...Array.from({ length: 23 }, (_, j) =>
          urlOf(1_000_000 + ((next * 31 + j * 977) % (next - 999_999))),
        ),
        ...Array.from({ length: 3 }, () => urlOf(next++)),
      ];
      const links = targets.map((u, j) => ({ url: u, anchor: j % 2 ? 'link text' : null }));
      const newUrls = targets.map((u, j) => ({
        url: u,
        depth: c.depth + 1,
        priority: (j * 13 + next) % 100,
      }));
      return {
        url: c.url,
        state: k % 3 === 0 ? 'discard' : 'complete',
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
  await store.close();
  // Every thread of the process (the body writer's gzip included), until the store closed.
  const cpu = process.cpuUsage(cpu0);
  const what = `claim+commit${withBody ? ' with 10 KB body' : ''}`;
  return {
    [`${what} (pages/s)`]: rate(done, ms),
    [`${what} (CPU ms/page)`]: ((cpu.user + cpu.system) / 1000 / done).toFixed(3),
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
      lines.push(`  ${((i + batch) / 1e6).toFixed(0)}M: ${rate(1_000_000, t - tm)} URLs/s`);
      tm = t;
    }
  }
  const insertMs = now() - t0;
  const claims = 100_000;
  const t1 = now();
  let got = 0;
  while (got < claims) got += (await store.claim(1000)).length;
  const claimMs = now() - t1;
  const t2 = now();
  const waiting = (await store.counts()).waiting;
  const dropped = await store.trimWaiting(waiting - 100_000);
  const trimMs = now() - t2;
  await store.close();
  const out = {
    [`insert ${n.toLocaleString('en-US')} waiting (URLs/s)`]: rate(n, insertMs),
    'claim(1000) best-first (URLs/s)': rate(got, claimMs),
    'trimWaiting 100,000 (URLs/s)': rate(dropped, trimMs),
    'peak RSS': mib(process.resourceUsage().maxRSS),
  };
  if (kind === 'sqlite') {
    out['crawl.db size'] = `${Math.round(statSync(join(dir, 'crawl.db')).size / 2 ** 20)} MiB`;
  }
  if (lines.length > 0) console.error(`${kind} insert rate per million:\n${lines.join('\n')}`);
  return out;
}

const phase = args.indexOf('--phase');
if (phase >= 0) {
  const [name, kind, dir, n] = args.slice(phase + 1);
  const count = Number(n);
  const result =
    name === 'add'
      ? await addPhase(kind, dir, count)
      : name === 'cycle'
        ? await cyclePhase(kind, dir, count, false)
        : name === 'cycle-body'
          ? await cyclePhase(kind, dir, count, true)
          : await frontierPhase(kind, dir, count);
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
      });
      if (r.status !== 0) throw new Error(`${name} ${kind} failed (${r.status})`);
      const res = JSON.parse(r.stdout.trim().split('\n').pop());
      for (const [k, v] of Object.entries(res))
        console.log(`${kind.padEnd(7)} ${name.padEnd(10)} ${k.padEnd(40)} ${v}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const urls = opt('urls', 200_000);
  const cycles = opt('cycles', 50_000);
  for (const kind of ['sqlite', 'memory']) {
    run('add', kind, urls);
    run('cycle', kind, cycles);
    run('cycle-body', kind, cycles);
  }
  run('frontier', 'memory', opt('memory-frontier', 1_000_000));
  run('frontier', 'sqlite', opt('frontier', 10_000_000));
}
