// `npm run demo`: start the test web on 127.0.0.1, show `inspect` on pages that exercise
// each foundation stage, then fetch + parse + score a labelled sample of the web and
// measure how well the keyword VSM (DESIGN 1.1) separates relevant from irrelevant pages.
import { createFetcher } from '../../fetch/index.js';
import { inspectUrl } from '../../inspect/index.js';
import { analyzeBody } from '../../parse/index.js';
import { createKeywordModel, parseTopic } from '../../relevance/index.js';
import {
  labels,
  listPageUrls,
  pageFacts,
  startTestWeb,
  type WebSize,
} from '../../testweb/index.js';
import { bool, type FlagSpec, int, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { formatReport } from './inspect.js';

const HELP = `Usage: focuscrawl demo [--size small|medium|large] [--pages N] [--threshold R]

Starts the test web on 127.0.0.1, inspects a few pages that show robots.txt, redirects,
charset detection and relevance at work, then fetches, parses and scores N pages of the
labelled web (default 2000) with each labelled topic's keywords and reports precision and
recall of the keep/discard decision at the threshold (default 0.1), and the throughput.`;

const flags: FlagSpec = {
  size: { type: 'string' },
  pages: { type: 'string' },
  threshold: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export async function demoCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('demo', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const size = (str(p, 'size') ?? 'small') as WebSize;
  const threshold = Number(str(p, 'threshold') ?? '0.1');
  const web = await startTestWeb({ port: 0, seed: 1, size });
  // The test web is ours and on loopback: no politeness delay needed there.
  const fetcher = { resolve: [web.resolve], delayMs: 0, perHostConcurrency: 8, concurrency: 32 };
  try {
    io.out(
      `focuscrawl demo — test web on http://127.0.0.1:${web.port} (${web.hosts.length} hosts, seed 1, size ${size})`,
    );
    io.out(`(every request goes to that loopback port through --resolve '${web.resolve}')\n`);
    const all = labels({ seed: 1, size });
    const zh = all.topics.find((t) => t.language === 'zh');
    if (!zh) throw new Error('the test web has no Chinese topic');
    const topic = parseTopic(JSON.stringify(zh.topic), `${zh.id} topic`);
    const offTopic = listPageUrls({ seed: 1, size }).find(
      (u) => pageFacts({ seed: 1, size }, u)?.topic === null,
    );
    const shows: Array<[string, string, boolean]> = [
      [
        `1. A Chinese page on the topic "${zh.name}", scored against its keywords`,
        zh.relevant[3] ?? zh.relevant[0] ?? '',
        true,
      ],
      [
        '2. An off-topic page: below the threshold, so a crawl would drop it and not follow its links',
        offTopic ?? '',
        true,
      ],
      [
        '3. robots.txt at work: this path is disallowed for focuscrawl',
        'http://robots-rules.test/private/report.html',
        false,
      ],
      [
        '4. A GBK page that declares no charset anywhere: detected from the bytes',
        'http://gbk-none.test/page/1',
        false,
      ],
      [
        '5. A redirect chain, each hop canonicalised and checked',
        'http://redirect.test/chain/3',
        false,
      ],
    ];
    for (const [title, url, withTopic] of shows) {
      io.out(`── ${title}`);
      const r = await inspectUrl(url, { fetcher, ...(withTopic ? { topic } : {}), threshold });
      io.out(`${formatReport(r, 3)}\n`);
    }
    await relevanceCheck(io, size, threshold, int(p, 'pages', 'demo') ?? 2000, fetcher);
    io.out(
      '\nNext: `focuscrawl testweb` serves this web for your own experiments; `focuscrawl inspect --help`.',
    );
    return 0;
  } finally {
    await web.close();
  }
}

async function relevanceCheck(
  io: Io,
  size: WebSize,
  threshold: number,
  n: number,
  fetcherOptions: {
    resolve: string[];
    delayMs: number;
    perHostConcurrency: number;
    concurrency: number;
  },
): Promise<void> {
  const web = { seed: 1, size };
  const urls = listPageUrls(web, n);
  const all = labels(web);
  const models = all.topics.map((t) => ({
    t,
    model: createKeywordModel(parseTopic(JSON.stringify(t.topic), t.id)),
  }));
  const fetcher = createFetcher(fetcherOptions);
  const scores: Array<{ url: string; rel: number[] }> = [];
  let bytes = 0;
  let failed = 0;
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      try {
        const res = await fetcher.fetch(url);
        bytes += res.bytes;
        const page = analyzeBody(res.body, res.contentType, res.finalUrl).page;
        if (!page) throw new Error(`${url}: not HTML`);
        scores.push({ url, rel: models.map((m) => m.model.score(page).relevance) });
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: fetcherOptions.concurrency }, worker));
  const secs = (performance.now() - t0) / 1000;
  await fetcher.close();
  io.out(`── 6. Fetch, decode, parse and score ${urls.length} pages of the labelled web`);
  io.out(
    `${scores.length} pages (${failed} failed), ${(bytes / 1048576).toFixed(1)} MiB in ${secs.toFixed(1)} s = ${(scores.length / secs).toFixed(0)} pages/s`,
  );
  io.out(`Keep/discard by keyword VSM at threshold ${threshold}, against the ground truth:`);
  io.out(
    `  ${'topic'.padEnd(22)} ${'relevant'.padStart(8)} ${'kept'.padStart(6)} ${'precision'.padStart(9)} ${'recall'.padStart(7)}`,
  );
  models.forEach(({ t }, i) => {
    const relevant = new Set(t.relevant);
    let tp = 0;
    let kept = 0;
    let pos = 0;
    for (const s of scores) {
      const isRel = relevant.has(s.url);
      const keep = (s.rel[i] ?? 0) >= threshold;
      if (isRel) pos++;
      if (keep) kept++;
      if (isRel && keep) tp++;
    }
    const prec = kept ? tp / kept : 0;
    const rec = pos ? tp / pos : 0;
    io.out(
      `  ${padWide(`${t.id} (${t.name})`, 22)} ${String(pos).padStart(8)} ${String(kept).padStart(6)} ${(prec * 100).toFixed(1).padStart(8)}% ${(rec * 100).toFixed(1).padStart(6)}%`,
    );
  });
}

/** padEnd by display width: CJK characters take two terminal columns. */
function padWide(s: string, width: number): string {
  let w = 0;
  for (const ch of s) w += /[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1;
  return s + ' '.repeat(Math.max(0, width - w));
}
