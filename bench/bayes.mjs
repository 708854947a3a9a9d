// DESIGN 1.4's experiment (BENCHMARKS.md): naive Bayes link ordering (normal and kernel
// density, offline and learning online) against PageRank ordering, best-first VSM and
// BFS, on the large test web from its portal, for a Chinese and an English topic:
// harvest rate and target recall at 1,000 / 5,000 / 20,000 pages. The models are
// trained the way `focuscrawl train` trains them, on a labelled sample of the web's
// pages (positives: pages of the topic; negatives: other pages). Also: link scoring
// throughput (links/s) and its share of the crawl's CPU. Needs `npm run build` first.
//
//   node bench/bayes.mjs [--pages 20000] [--topics grid,astronomy] [--runs ...]
//       [--learn-every 1000] [--json]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '20000' },
    topics: { type: 'string', default: 'grid,astronomy' },
    runs: {
      type: 'string',
      default: 'bfs,best-first,pagerank,bayes-normal,bayes-kernel,bayes-online',
    },
    'learn-every': { type: 'string', default: '1000' },
    positives: { type: 'string', default: '100' },
    negatives: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '64' },
    size: { type: 'string', default: 'large' },
    json: { type: 'boolean', default: false },
    role: { type: 'string' },
  },
});
const WEB = { seed: 1, size: values.size };
const BUDGETS = [1000, 5000, Number(values.pages)];

if (values.role === 'server') {
  const { startTestWeb } = await import('../dist/testweb/index.js');
  const web = await startTestWeb({ port: 0, ...WEB, maxLogEntries: 0 });
  process.send({ port: web.port });
} else {
  await main();
}

/** Term counts of test-web pages, rendered without the network. */
async function pageCounts(urls) {
  const { pageHtml } = await import('../dist/testweb/index.js');
  const { analyzeBody } = await import('../dist/parse/index.js');
  const { documentTermCounts } = await import('../dist/relevance/index.js');
  return urls.map((url) => {
    const a = analyzeBody(Buffer.from(pageHtml(WEB, url) ?? ''), 'text/html; charset=utf-8', url);
    return documentTermCounts({ title: a.page?.title ?? '', text: a.page?.text ?? '', url });
  });
}

/** Models of both densities from a labelled sample (every k-th page). */
async function trainModels(t, all, dir) {
  const { trainLinkModel, crossValidateLinkModel, writeLinkModelFile } = await import(
    '../dist/relevance/index.js'
  );
  const relevant = new Set(t.relevant);
  const content = t.relevant.filter((u) => !u.endsWith('/'));
  const np = Number(values.positives);
  const nn = Number(values.negatives);
  const pos = await pageCounts(content.filter((_, i) => i % 37 === 5).slice(0, np));
  const others = all.filter((u) => !relevant.has(u));
  const step = Math.max(1, Math.floor(others.length / nn));
  const neg = await pageCounts(others.filter((_, i) => i % step === 3).slice(0, nn));
  const files = {};
  for (const density of ['normal', 'kernel']) {
    const cv = crossValidateLinkModel(pos, neg, { density });
    const model = trainLinkModel(pos, neg, { density }).withMetrics(cv);
    files[density] = join(dir, `${t.id}-${density}.json`);
    await writeLinkModelFile(files[density], model);
    console.log(
      `model ${t.id}/${density}: ${pos.length}+${neg.length} examples, ${model.vocabularySize} terms; 5-fold CV accuracy ${(cv.accuracy * 100).toFixed(1)}%, precision ${(cv.precision * 100).toFixed(1)}%, recall ${(cv.recall * 100).toFixed(1)}%, F1 ${(cv.f1 * 100).toFixed(1)}%`,
    );
  }
  return files;
}

/** Links scored per second by a model (context tokens + URL tokens → log odds). */
async function scoringThroughput(modelFile) {
  const { listPageUrls, pageHtml } = await import('../dist/testweb/index.js');
  const { analyzeBody } = await import('../dist/parse/index.js');
  const { linkTermCounts, readLinkModelFile } = await import('../dist/relevance/index.js');
  const model = await readLinkModelFile(modelFile);
  const links = [];
  for (const url of listPageUrls(WEB)
    .filter((_, i) => i % 11 === 0)
    .slice(0, 2000)) {
    const a = analyzeBody(Buffer.from(pageHtml(WEB, url) ?? ''), 'text/html; charset=utf-8', url);
    for (const l of a.page?.links ?? [])
      links.push({
        url: l.url,
        anchor: l.anchor,
        context: l.context || l.anchor,
        title: a.page?.title ?? '',
      });
  }
  let sink = 0;
  for (const l of links) sink += model.logOdds(linkTermCounts(l));
  const t0 = process.cpuUsage();
  for (const l of links) sink += model.logOdds(linkTermCounts(l));
  const cpu = process.cpuUsage(t0);
  if (Number.isNaN(sink)) console.log(sink);
  return links.length / ((cpu.user + cpu.system) / 1e6);
}

async function main() {
  const { crawl } = await import('../dist/crawl/index.js');
  const { openStore } = await import('../dist/store/index.js');
  const { labels, listPageUrls } = await import('../dist/testweb/index.js');
  const server = fork(fileURLToPath(import.meta.url), ['--role', 'server', '--size', values.size]);
  const port = await new Promise((ok) => server.once('message', (m) => ok(m.port)));
  const resolve = `*.test=127.0.0.1:${port}`;
  const L = labels(WEB);
  const all = listPageUrls(WEB);
  const root = mkdtempSync(join(tmpdir(), 'focuscrawl-bayes-'));
  const rows = [];
  try {
    const models = {};
    for (const id of values.topics.split(',')) {
      models[id] = await trainModels(
        L.topics.find((x) => x.id === id),
        all,
        root,
      );
      for (const density of ['normal', 'kernel']) {
        const lps = await scoringThroughput(models[id][density]);
        console.log(
          `link scoring ${id}/${density}: ${Math.round(lps).toLocaleString('en')} links/s (one core)`,
        );
      }
    }
    console.log(
      `\n| topic | run | harvest / recall at ${BUDGETS.map((b) => b.toLocaleString('en')).join(' | ')} | pages/s | CPU/page | links scored/page |`,
    );
    console.log(`| --- | --- | ${BUDGETS.map(() => '---:').join(' | ')} | ---: | ---: | ---: |`);
    for (const id of values.topics.split(',')) {
      const t = L.topics.find((x) => x.id === id);
      const relevant = new Set(t.relevant);
      for (const run of values.runs.split(',')) {
        const dir = join(root, `${id}-${run}`);
        const o = {
          bfs: { strategy: 'bfs' },
          'best-first': { strategy: 'best-first' },
          pagerank: { strategy: 'pagerank' },
          'bayes-normal': { model: 'bayes', modelFile: models[id].normal },
          'bayes-kernel': { model: 'bayes', modelFile: models[id].kernel },
          'bayes-online': {
            model: 'bayes',
            modelFile: models[id].kernel,
            learnEvery: Number(values['learn-every']),
          },
        }[run];
        if (o === undefined) throw new Error(`unknown run ${run}`);
        const summary = await crawl({
          store: dir,
          topic: t.topic,
          seeds: L.seeds,
          ...o,
          maxPages: BUDGETS.at(-1),
          scope: 'any',
          fetcher: {
            resolve: [resolve],
            allowPrivateAddresses: true,
            delayMs: 0,
            concurrency: Number(values.concurrency),
            perHostConcurrency: 8,
          },
        });
        const store = await openStore(dir, { readonly: true });
        let n = 0;
        let hits = 0;
        const at = {};
        for await (const h of store.history()) {
          n++;
          if (relevant.has(h.url)) hits++;
          if (BUDGETS.includes(n)) at[n] = { harvest: hits / n, recall: hits / relevant.size };
        }
        let links = 0;
        for await (const _ of store.urls()) links++;
        const learning = await store.getMeta('linkLearning');
        await store.close();
        rmSync(dir, { recursive: true, force: true });
        const cpuPerPage = summary.resources.cpuMs / Math.max(1, summary.run.fetched);
        const row = {
          topic: id,
          run,
          fetched: n,
          pagesPerSec: summary.pagesPerSec,
          cpuPerPage,
          urlsPerPage: links / Math.max(1, n),
          at,
          end: { harvest: hits / Math.max(1, n), recall: hits / relevant.size },
          snapshots: learning?.snapshots?.length ?? 0,
          lastMetrics: learning?.snapshots?.at(-1)?.metrics ?? null,
        };
        rows.push(row);
        const cells = BUDGETS.map((b) => {
          const x = at[b] ?? row.end;
          return `${(x.harvest * 100).toFixed(1)}% / ${(x.recall * 100).toFixed(1)}%`;
        });
        console.log(
          `| ${id} | ${run} | ${cells.join(' | ')} | ${Math.round(summary.pagesPerSec).toLocaleString('en')} | ${cpuPerPage.toFixed(2)} ms | ${row.urlsPerPage.toFixed(1)} |${row.snapshots ? ` ${row.snapshots} retrainings; last: ${JSON.stringify(row.lastMetrics)}` : ''}`,
        );
      }
    }
  } finally {
    server.kill();
    rmSync(root, { recursive: true, force: true });
  }
  if (values.json) console.log(JSON.stringify(rows));
}
