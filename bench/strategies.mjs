// Strategy × model table (BENCHMARKS.md): focused crawls of the large test web for
// one Chinese and one English labelled topic, each strategy with each relevance
// model, 20,000 pages each; harvest rate and target recall at 1,000 / 5,000 /
// 20,000 pages from the crawl history and the ground truth, pages/s of the crawl.
// The test web runs in its own process. Needs `npm run build` first.
//
//   node bench/strategies.mjs [--pages 20000] [--topics grid,astronomy]
//       [--runs bfs,best-first,...] [--seeds portal|topic] [--concurrency 64] [--json]
//
// A run is `strategy` or `strategy/model` or `strategy/model/threshold`
// (threshold: a number, iterative or adaptive); `learned` as the model means tfidf
// with a topic learned by `topic learn` from 40 labelled example pages.
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
      default:
        'bfs/vsm/0,bfs,dfs,best-first,fish,shark,tunnel,multi-queue,' +
        'best-first/tfidf,tunnel/tfidf,best-first/learned,tunnel/learned,' +
        'best-first/vsm/iterative,best-first/vsm/adaptive,tunnel/vsm/iterative',
    },
    concurrency: { type: 'string', default: '64' },
    size: { type: 'string', default: 'large' },
    json: { type: 'boolean', default: false },
    'scoring-pages': { type: 'string', default: '3000' },
    // portal: every crawl starts from the test web's portal (a general entry page
    // linking every site); topic: from the topic's own hub and home pages.
    seeds: { type: 'string', default: 'portal' },
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

async function learnedTopic(t, all, resolve) {
  const { learnTopic } = await import('../dist/learn/index.js');
  const relevant = new Set(t.relevant);
  const positive = t.relevant.filter((_, i) => i % 50 === 7).slice(0, 40);
  const negative = [];
  for (const o of all.topics) {
    if (o.id !== t.id)
      negative.push(...o.relevant.filter((u, i) => i % 200 === 3 && !relevant.has(u)));
  }
  const { createTopic } = await import('../dist/relevance/index.js');
  const r = await learnTopic({
    positive,
    negative: negative.slice(0, 40),
    expert: createTopic(t.topic),
    name: t.name,
    fetcher: {
      resolve: [resolve],
      allowPrivateAddresses: true,
      delayMs: 0,
      concurrency: 16,
      perHostConcurrency: 4,
    },
  });
  return r.topic;
}

/**
 * Scoring cost: CPU time per page of what a best-first crawl scores (the page's text
 * and every link's context) with each model, on test-web pages parsed beforehand.
 */
async function scoringCost(topics) {
  const { listPageUrls, pageHtml } = await import('../dist/testweb/index.js');
  const { analyzeBody } = await import('../dist/parse/index.js');
  const { createRelevanceModel, createTopic } = await import('../dist/relevance/index.js');
  const urls = listPageUrls(WEB)
    .filter((_, i) => i % 7 === 0)
    .slice(0, Number(values['scoring-pages']));
  const pages = urls.map((u) => {
    const a = analyzeBody(Buffer.from(pageHtml(WEB, u) ?? ''), 'text/html; charset=utf-8', u);
    return {
      text: a.page?.text ?? '',
      title: a.page?.title ?? '',
      contexts: (a.page?.links ?? []).map((l) => l.context || l.anchor),
    };
  });
  const out = {};
  for (const [name, topic] of topics) {
    for (const model of ['vsm', 'tfidf']) {
      const m = createRelevanceModel(model, createTopic(topic));
      let sink = 0;
      const round = () => {
        for (const p of pages) {
          sink += m.relevance({ text: p.text, title: p.title });
          for (const c of p.contexts) sink += m.relevance({ text: c });
        }
      };
      round();
      const t0 = process.cpuUsage();
      round();
      const cpu = process.cpuUsage(t0);
      out[`${name}/${model}`] = (cpu.user + cpu.system) / 1000 / pages.length;
      if (sink < 0) console.log(sink);
    }
  }
  return out;
}

async function main() {
  const { crawl } = await import('../dist/crawl/index.js');
  const { openStore } = await import('../dist/store/index.js');
  const { labels } = await import('../dist/testweb/index.js');
  const server = fork(fileURLToPath(import.meta.url), ['--role', 'server', '--size', values.size]);
  const port = await new Promise((ok) => server.once('message', (m) => ok(m.port)));
  const resolve = `*.test=127.0.0.1:${port}`;
  const L = labels(WEB);
  const topicIds = values.topics.split(',');
  const scoring = await scoringCost(
    topicIds.map((id) => [id, L.topics.find((x) => x.id === id).topic]),
  );
  for (const [k, ms] of Object.entries(scoring))
    console.log(`scoring ${k}: ${ms.toFixed(3)} ms CPU per page (page text + link contexts)`);
  const root = mkdtempSync(join(tmpdir(), 'focuscrawl-strategies-'));
  const rows = [];
  const learned = new Map();
  try {
    console.log(
      `\n| topic | run | harvest / recall at ${BUDGETS.map((b) => b.toLocaleString('en')).join(' | ')} | fetched | pages/s | CPU/page | scoring share |`,
    );
    console.log(
      `| --- | --- | ${BUDGETS.map(() => '---:').join(' | ')} | ---: | ---: | ---: | ---: |`,
    );
    for (const id of topicIds) {
      const t = L.topics.find((x) => x.id === id);
      if (!t) throw new Error(`no topic ${id}`);
      const relevant = new Set(t.relevant);
      for (const run of values.runs.split(',')) {
        const [strategy, model = 'vsm', threshold] = run.split('/');
        let topic = t.topic;
        if (model === 'learned') {
          if (!learned.has(id)) learned.set(id, await learnedTopic(t, L, resolve));
          topic = learned.get(id);
        }
        const dir = join(root, `${id}-${run.replaceAll('/', '-')}`);
        const th =
          threshold === undefined
            ? {}
            : { threshold: Number.isNaN(Number(threshold)) ? threshold : Number(threshold) };
        const summary = await crawl({
          store: dir,
          topic,
          seeds: values.seeds === 'portal' ? L.seeds : t.seeds,
          strategy,
          model: model === 'learned' ? 'tfidf' : model,
          ...th,
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
        await store.close();
        rmSync(dir, { recursive: true, force: true });
        const cpuPerPage = summary.resources.cpuMs / Math.max(1, summary.run.fetched);
        const scoringMs = scoring[`${id}/${model === 'learned' ? 'tfidf' : model}`] ?? 0;
        const row = {
          topic: id,
          run,
          fetched: n,
          pagesPerSec: summary.pagesPerSec,
          cpuPerPage,
          scoringShare: scoringMs / cpuPerPage,
          at,
          end: { harvest: hits / Math.max(1, n), recall: hits / relevant.size },
        };
        rows.push(row);
        const cells = BUDGETS.map((b) => {
          const x = at[b] ?? row.end;
          return `${(x.harvest * 100).toFixed(1)}% / ${(x.recall * 100).toFixed(1)}%`;
        });
        console.log(
          `| ${id} | ${run} | ${cells.join(' | ')} | ${n.toLocaleString('en')} | ${Math.round(summary.pagesPerSec).toLocaleString('en')} | ${cpuPerPage.toFixed(2)} ms | ${(row.scoringShare * 100).toFixed(0)}% |`,
        );
      }
    }
  } finally {
    server.kill();
    rmSync(root, { recursive: true, force: true });
  }
  if (values.json) console.log(JSON.stringify(rows));
}
