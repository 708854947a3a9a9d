// A small crawl store with known figures, for the tests of export, status and report.
import { join } from 'node:path';
import type { CrawlRunRecord, StoredTopic } from '../crawl/index.js';
import type { ThresholdHistory, TopicHistory } from '../relevance/history.js';
import { openStore } from '../store/index.js';
import { tempDir } from '../util/testing.js';

/** 2024-05-01T12:00:00Z */
export const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

export const SAMPLE = {
  home: 'http://a.test/',
  p1: 'http://a.test/p1',
  p2: 'http://a.test/p2',
  p3: 'http://a.test/p3',
  bx: 'http://b.test/x',
  /** A title with a comma, a double quote and a line break. */
  homeTitle: 'Home, "sweet"\nhome',
  p1Title: '显示器市场，价格',
  homeHtml:
    '<html><head><title>Home, "sweet"\nhome</title></head><body><p>电网 news, "quoted"</p>' +
    '<a href="/p1">显示器</a> <a href="/p2">other</a> <a href="http://b.test/x">x</a></body></html>',
  p1Html:
    '<html><head><meta charset="utf-8"><title>显示器市场，价格</title></head>' +
    '<body><h1>显示器市场</h1><p>价格上涨。</p><a href="/p3">more</a></body></html>',
  p2Html: '<html><head><title>Cooking</title></head><body><p>Bread</p></body></html>',
  runs: [
    {
      startedAt: T0 - 1000,
      endedAt: T0 + 60_000,
      fetched: 3,
      stopReason: 'duration',
      strategy: 'best-first',
    },
    {
      startedAt: T0 + 120_000,
      endedAt: T0 + 150_000,
      fetched: 1,
      stopReason: 'max-pages',
      strategy: 'best-first',
    },
  ] satisfies CrawlRunRecord[],
  topic: { name: '电网', keywords: { 电网: 1, 市场: 0.5, 价格: 0.25 }, threshold: 0.1 },
} as const;

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/**
 * Builds, in a new temporary directory, a closed SQLite store holding: the seed
 * `home` (complete), `p1` (complete, CJK), `p2` (discard, stored body), `bx`
 * (error 503), `p3` still waiting, two runs and a topic.
 */
export async function buildSampleStore(options: { runs?: boolean } = {}): Promise<string> {
  const dir = join(tempDir('export'), 'store');
  const s = SAMPLE;
  const store = await openStore(dir, { create: true });
  try {
    await store.addSeeds([s.home]);
    const [seed] = await store.claim(1);
    if (seed?.url !== s.home) throw new Error('sample store: the seed was not claimed first');
    await store.commit([
      {
        url: s.home,
        state: 'complete',
        result: {
          fetchedAt: T0,
          status: 200,
          contentType: 'text/html; charset=utf-8',
          bytes: utf8(s.homeHtml).length,
          title: s.homeTitle,
          relevance: 0.8,
          contentHash: 'h-home',
          body: utf8(s.homeHtml),
          links: [
            { url: s.p1, anchor: '显示器' },
            { url: s.p2, anchor: 'other' },
            { url: s.bx, anchor: 'x' },
          ],
          newUrls: [
            { url: s.p1, depth: 1, priority: 0.9, anchor: '显示器', discoveredAt: T0 },
            { url: s.p2, depth: 1, priority: 0.5, anchor: 'other', discoveredAt: T0 },
            { url: s.bx, depth: 1, priority: 0.3, anchor: 'x', discoveredAt: T0 },
          ],
        },
      },
    ]);
    const batch = await store.claim(3);
    if (batch.map((c) => c.url).join(' ') !== [s.p1, s.p2, s.bx].join(' ')) {
      throw new Error('sample store: unexpected claim order');
    }
    await store.commit([
      {
        url: s.p1,
        state: 'complete',
        result: {
          fetchedAt: T0 + 1000,
          status: 200,
          contentType: 'text/html',
          bytes: utf8(s.p1Html).length,
          title: s.p1Title,
          relevance: 0.6,
          body: utf8(s.p1Html),
          links: [{ url: s.p3, anchor: 'more' }],
          newUrls: [
            { url: s.p3, depth: 2, priority: 0.4, anchor: 'more', discoveredAt: T0 + 1000 },
          ],
        },
      },
      {
        url: s.p2,
        state: 'discard',
        result: {
          fetchedAt: T0 + 2000,
          status: 200,
          contentType: 'text/html',
          bytes: utf8(s.p2Html).length,
          title: 'Cooking',
          relevance: 0.05,
          body: utf8(s.p2Html),
        },
      },
      {
        url: s.bx,
        state: 'error',
        result: { fetchedAt: T0 + 121_000, status: 503, error: 'HTTP 503 Service Unavailable' },
      },
    ]);
    await store.setPageScores([{ url: s.home, pageRank: 0.5, score: 0.68 }]);
    if (options.runs !== false) await store.setMeta('runs', s.runs);
    await store.setMeta('topic', s.topic satisfies StoredTopic);
  } finally {
    await store.close();
  }
  return dir;
}

/** Bytes of the three fetched pages of the sample store. */
export const SAMPLE_BYTES =
  utf8(SAMPLE.homeHtml).length + utf8(SAMPLE.p1Html).length + utf8(SAMPLE.p2Html).length;

/** An Io that keeps what a command prints. */
export function captureIo(): {
  out: (s: string) => void;
  err: (s: string) => void;
  stdout: () => string;
  stderr: () => string;
} {
  let out = '';
  let err = '';
  return {
    out: (s) => {
      out += s.endsWith('\n') ? s : `${s}\n`;
    },
    err: (s) => {
      err += s.endsWith('\n') ? s : `${s}\n`;
    },
    stdout: () => out,
    stderr: () => err,
  };
}

/** A strict RFC 4180 reader for tests: records of fields, quotes undone. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let i = 0;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && field === '') {
      // a quoted field: up to the lone closing quote
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quoted field at ${i}`);
        field += text.slice(i, q);
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      const next = text[i];
      if (next !== ',' && next !== '\r' && next !== undefined) {
        throw new Error(`text after a closing quote at ${i}`);
      }
      continue;
    }
    if (c === ',') {
      endField();
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      records.push(fields);
      fields = [];
      i += 2;
    } else if (c === '"' || c === '\n' || c === '\r') {
      throw new Error(`unquoted ${JSON.stringify(c)} at ${i}`);
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || fields.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

/** A threshold history as a crawl with an iterative threshold stores it (7 changes, frozen). */
export const SAMPLE_THRESHOLD: ThresholdHistory = {
  kind: 'iterative',
  initial: 0.05,
  value: 0.1834,
  frozen: true,
  changes: [
    [100, 0.05, 0.12, 'iterative'],
    [200, 0.12, 0.15, 'iterative'],
    [300, 0.15, 0.17, 'iterative'],
    [400, 0.17, 0.18, 'iterative'],
    [500, 0.18, 0.183, 'iterative'],
    [600, 0.183, 0.1834, 'iterative'],
    [600, 0.1834, 0.1834, 'converged'],
  ].map(([fetched, from, to, rule], i) => ({
    at: T0 + (i + 1) * 1000,
    fetched: fetched as number,
    from: from as number,
    to: to as number,
    rule: rule as string,
  })),
  state: { histogram: [1, 2, 3] },
};

/** A topic-vector history with two re-estimations; a keyword carries markup. */
export const SAMPLE_TOPIC_HISTORY: TopicHistory = {
  changes: [
    {
      at: T0 + 5000,
      fetched: 500,
      drift: 0.0123,
      limited: false,
      added: ['面板', '分辨率'],
      removed: ['价格'],
      top: [
        ['显示器', 1],
        ['面板', 0.5],
      ],
    },
    {
      at: T0 + 9000,
      fetched: 1000,
      drift: 0.04213,
      limited: true,
      added: ['<b>液晶</b>'],
      removed: [],
      top: [
        ['显示器', 1],
        ['<b>液晶</b>', 0.3125],
        ['面板', 0.25],
      ],
    },
  ],
  keywords: { 显示器: 1, '<b>液晶</b>': 0.3125, 面板: 0.25, 分辨率: 0.1 },
};
