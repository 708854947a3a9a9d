// Focus on real sites (BENCHMARKS.md): real documentation installed from Debian packages
// (see bench/realweb/sites.ts, never committed), served as virtual hosts of one local
// server with a portal; for each topic, focuscrawl configurations and two reference
// crawlers crawl from the portal with the same budget; the figures come from the
// server's log. Needs `npm run build` first (or --cli src).
//
//   node --import tsx bench/realweb.ts [--topics a,b] [--configs 'default;tunnel;x:--strategy best-first --threshold 0.2']
//       [--pages 3000] [--out FILE.md] [--json FILE] [--cli dist|src] [--store-stats] [--keep] [--trace DIR]
//   node --import tsx bench/realweb.ts --render a.json,b.json    (tables of earlier runs, merged)
//
// A configuration is a preset (default, best-first, bfs, dfs, fish, shark, tunnel,
// multi-queue, pagerank, tfidf, bayes, ref-bfs, ref-keyword) or `name:--flags ...` or
// `name:flag=value,flag2`; `@learned` / `@model` stand for the topic learned by
// `topic learn` and the model trained by `train` from 5 labelled and 10 other pages.
// --sites git,postgresql serves only those sites; --store-stats also counts each
// focuscrawl store's outcomes; --keep keeps the stores (the work dir is printed);
// --idle-ms N stops a focuscrawl run after N ms without a request (default 30000);
// --trace DIR writes each run's requests in order to DIR/<topic>.<config>.tsv.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runBench } from './realweb/bench.js';
import { type CliKind, DEFAULT_CONFIGS, parseConfigs } from './realweb/focuscrawl.js';
import { markdown, mergeResults } from './realweb/report.js';
import { TOPICS } from './realweb/topics.js';

const { values } = parseArgs({
  options: {
    topics: { type: 'string', default: TOPICS.map((t) => t.id).join(',') },
    configs: { type: 'string', default: DEFAULT_CONFIGS },
    pages: { type: 'string', default: '3000' },
    out: { type: 'string' },
    json: { type: 'string' },
    cli: { type: 'string', default: 'dist' },
    sites: { type: 'string' },
    'store-stats': { type: 'boolean', default: false },
    render: { type: 'string' },
    'idle-ms': { type: 'string' },
    keep: { type: 'boolean', default: false },
    trace: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${readFileSync(import.meta.filename, 'utf8').split('\nimport')[0]}\n`);
  process.exit(0);
}
const budget = Number(values.pages);
if (!Number.isInteger(budget) || budget < 1)
  throw new Error(`--pages: expected a positive integer, got ${values.pages}`);
if (values.cli !== 'dist' && values.cli !== 'src') throw new Error('--cli: dist or src');

let result: Awaited<ReturnType<typeof runBench>>;
if (values.render) {
  // --render a.json,b.json: the tables of earlier runs (merged: a later run of a configuration wins)
  const results = values.render.split(',').map((f) => JSON.parse(readFileSync(f, 'utf8')));
  process.stdout.write(markdown(mergeResults(results)));
  process.exit(0);
}
try {
  result = await runBench({
    topics: values.topics.split(',').filter(Boolean),
    configs: parseConfigs(values.configs),
    budget,
    cli: values.cli as CliKind,
    storeStats: values['store-stats'],
    keepStores: values.keep,
    ...(values['idle-ms'] ? { idleMs: Number(values['idle-ms']) } : {}),
    ...(values.sites ? { sites: values.sites.split(',') } : {}),
    ...(values.trace ? { traceDir: values.trace } : {}),
  });
} catch (e) {
  process.stderr.write(`realweb: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
}
const md = markdown(result);
if (values.out) writeFileSync(values.out, md);
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(md);
