// `focuscrawl search`: full-text search of a real SQLite store, as text and JSON.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { captureIo } from '../../export/testing.js';
import { openStore } from '../../store/index.js';
import { main } from '../index.js';
import { formatHits, plainSnippet, readableHits, scoreLine, searchCommand } from './search.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-search-cli-'));
const dir = join(root, 'store');
const u = (name: string) => `http://site.test/${name}`;

interface Fixture {
  title: string | null;
  text: string;
  relevance: number;
  keep?: boolean;
}

const PAGES: Record<string, Fixture> = {
  grid: {
    title: '国家电网调度中心',
    text: '国家电网调度中心负责全国电力系统的实时调度。电网负荷在夏季达到高峰，调度员需要平衡发电与用电。',
    relevance: 0.5,
  },
  price: {
    title: '电价调整',
    text: '居民电价今年没有变化，工业电价略有下降。电网公司表示，明年电价将保持稳定，居民用电和工业用电的价格都不会上涨，商业用电另行公布。',
    relevance: 0.5,
  },
  // 电 and 网 apart, never 电网.
  apart: { title: '电子网络', text: '电力网络和电子商务是两回事。', relevance: 0.5 },
  telescope: {
    title: 'The James Webb Space Telescope',
    text: 'The telescope observes distant galaxies in infrared light. Astronomers study galaxy formation with it.',
    relevance: 0.5,
  },
  cooking: {
    title: 'Slow cooking',
    text: 'Slow cooking keeps the meat tender; the telescope of patience is long, and dinner is late.',
    relevance: 0.5,
  },
  untitled: {
    title: null,
    text: 'Mirrors for a reflecting telescope are ground by hand.',
    relevance: 0.5,
  },
  escape: {
    title: 'Bad\x1b[2J title',
    text: 'Quasar light \x1b[31m arrives late.',
    relevance: 0.5,
  },
  dropped: {
    title: 'Telescopes again',
    text: 'A discarded telescope page.',
    relevance: 0.9,
    keep: false,
  },
};

before(async () => {
  const store = await openStore(dir, { create: true });
  try {
    const names = Object.keys(PAGES);
    await store.addSeeds(names.map(u));
    await store.claim(names.length);
    await store.commit(
      names.map((name) => {
        const p = PAGES[name] as Fixture;
        return {
          url: u(name),
          state: p.keep === false ? 'discard' : 'complete',
          result: { fetchedAt: 1_000, status: 200, bytes: 100, ...p },
        };
      }),
    );
    // As a crawl with --full-text kept records it.
    await store.setMeta('runs', [{ startedAt: 1, endedAt: 2, fetched: 5, fullText: 'kept' }]);
    // Ranked: the cooking page scores high, the telescope page low.
    await store.setPageScores([
      { url: u('cooking'), pageRank: 0.9, score: 1 },
      { url: u('telescope'), pageRank: 0.1, score: 0 },
    ]);
  } finally {
    await store.close();
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

async function search(...argv: string[]) {
  const io = captureIo();
  const code = await searchCommand(argv, io);
  return { code, out: io.stdout(), err: io.stderr() };
}

interface JsonHit {
  url: string;
  title: string | null;
  relevance: number;
  pageRank: number | null;
  score: number | null;
  bm25: number;
  rank: number;
  position: number;
  textMatch: number;
  p: number;
  snippet: string;
  highlights: [number, number][];
}

interface JsonResult {
  query: string;
  scoreWeight: number;
  bestBm25: number | null;
  hits: JsonHit[];
}

async function json(...argv: string[]): Promise<JsonResult> {
  const r = await search('--store', dir, '--json', ...argv);
  assert.equal(r.code, 0);
  return JSON.parse(r.out) as JsonResult;
}

const urls = (hits: JsonHit[]) => hits.map((h) => h.url);
const marked = (h: JsonHit) => h.highlights.map(([s, e]) => h.snippet.slice(s, e));

describe('focuscrawl search', () => {
  it('finds Chinese words as written, best first, never 电 and 网 apart', async () => {
    const r = await json('电网');
    assert.equal(r.query, '电网');
    // In the title and twice in the text before once in the text.
    assert.deepEqual(urls(r.hits), [u('grid'), u('price')]);
    assert.ok((r.hits[0]?.bm25 ?? 0) > (r.hits[1]?.bm25 ?? 0));
    assert.deepEqual(urls((await json('电网调度')).hits), [u('grid')]);
    assert.deepEqual(urls((await json('网络', '电子')).hits), [u('apart')]);
  });

  it('finds English words, stemmed, every word required, discarded pages never', async () => {
    const r = await json('--score-weight', '0', 'Telescope');
    assert.deepEqual(urls(r.hits).slice(0, 1), [u('telescope')]);
    assert.deepEqual(urls(r.hits).sort(), [u('cooking'), u('telescope'), u('untitled')].sort());
    assert.deepEqual(urls((await json('telescopes', 'infrared')).hits), [u('telescope')]);
    assert.deepEqual(urls((await json('galaxies', 'discarded')).hits), []);
  });

  it('prints the hits with the figures and the matched words in brackets', async () => {
    const r = await search('--store', dir, '--color', 'never', '电网');
    assert.equal(r.code, 0);
    assert.equal(r.err, '');
    const [header, ...blocks] = r.out.trimEnd().split('\n\n');
    assert.equal(
      header,
      "2 pages shown, best first; score = 0.7·text match + 0.3·P (text match: 1 for the best match; P: the page's final score, its relevance until focuscrawl rank runs)",
    );
    assert.equal(blocks.length, 2);
    const [first, second] = blocks.map((b) => b.split('\n'));
    // The best match: text match 1, P its relevance (not ranked), score 0.7 + 0.3 · 0.5.
    assert.deepEqual(first?.slice(0, 3), [
      '1. 国家电网调度中心',
      `   ${u('grid')}`,
      '   score 0.85  text match 1.00  P 0.50  relevance 0.50  PageRank -',
    ]);
    assert.match(first?.[3] ?? '', /^ {3}国家\[电网\]调度中心负责/);
    assert.doesNotMatch(r.out, /[\uE000\uE001\x1b]/);
    assert.equal(second?.[0], '2. 电价调整');
    assert.match(second?.[3] ?? '', /\[电网\]公司/);
  });

  it('shows P and PageRank once ranked, and P moves hits by --score-weight', async () => {
    const plain = await json('--score-weight', '0', 'telescope');
    assert.equal(plain.hits[0]?.url, u('telescope'));
    const blended = await json('--score-weight', '0.9', 'telescope');
    assert.equal(blended.hits[0]?.url, u('cooking'));
    assert.equal(blended.hits[0]?.score, 1);
    assert.equal(blended.hits[0]?.pageRank, 0.9);
    const text = await search('--store', dir, '--score-weight', '0.9', '--limit', '1', 'telescope');
    assert.match(text.out, /^1 page shown, best first; score = 0\.1·text match \+ 0\.9·P /);
    assert.match(text.out, /\n\n1\. Slow cooking\n/);
    assert.match(
      text.out,
      /score 0\.\d\d {2}text match 0\.\d\d {2}P 1\.00 {2}relevance 0\.50 {2}PageRank 0\.90\n/,
    );
    assert.doesNotMatch(text.out, /BM25/);
    assert.equal(text.out.trimEnd().split('\n\n').length, 2);
  });

  it('its readable figures make the score: (1 − w)·text match + w·P, the best match 1', async () => {
    for (const w of ['0', '0.3', '0.9', '1']) {
      const r = await json('--score-weight', w, 'telescope');
      assert.equal(r.scoreWeight, Number(w));
      assert.ok(r.bestBm25 !== null && r.bestBm25 > 0);
      assert.deepEqual(
        r.hits.map((h) => h.position),
        r.hits.map((_, i) => i + 1),
      );
      // The best match has text match 1 whether it comes first or not.
      assert.equal(Math.max(...r.hits.map((h) => h.textMatch)), 1, w);
      for (const h of r.hits) {
        assert.equal(h.textMatch, h.bm25 / (r.bestBm25 ?? 1));
        assert.equal(h.p, h.score ?? h.relevance);
        const blend = (1 - Number(w)) * h.textMatch + Number(w) * h.p;
        assert.ok(Math.abs(h.rank - blend) < 1e-9, `${w}: ${h.rank} vs ${blend}`);
        assert.ok(h.rank >= 0 && h.rank <= 1);
      }
    }
  });

  it('--json gives plain snippets and the UTF-16 offsets of the matched words', async () => {
    const zh = await json('电网', '调度');
    const grid = zh.hits[0] as JsonHit;
    assert.deepEqual(Object.keys(grid), [
      'url',
      'title',
      'relevance',
      'pageRank',
      'score',
      'bm25',
      'rank',
      'position',
      'textMatch',
      'p',
      'snippet',
      'highlights',
    ]);
    assert.equal(grid.title, '国家电网调度中心');
    assert.equal(grid.relevance, 0.5);
    assert.equal(grid.pageRank, null);
    assert.equal(grid.score, null);
    assert.doesNotMatch(grid.snippet, /[\uE000\uE001]/);
    assert.ok(grid.snippet.startsWith('国家电网调度中心负责'));
    // 电网 and 调度 side by side make one highlight; the snippet's first one is 2–6.
    assert.deepEqual(grid.highlights[0], [2, 6]);
    for (const w of marked(grid)) assert.match(w, /^(电网|调度)+$/);
    assert.ok(grid.highlights.length >= 3);
    const en = await json('--score-weight', '0', 'infrared', 'galaxies');
    const tele = en.hits[0] as JsonHit;
    // Stemmed: galaxy is marked along with galaxies.
    assert.deepEqual(marked(tele), ['galaxies', 'infrared', 'galaxy']);
    const at = tele.snippet.indexOf('galaxies');
    assert.deepEqual(tele.highlights[0], [at, at + 'galaxies'.length]);
    // The blend: BM25 alone at weight 0, the best match scaled to 1.
    assert.equal(tele.rank, 1);
  });

  it('highlights in bold inverse on a terminal, or when told to', async () => {
    const on = '\x1b[1;7m';
    const off = '\x1b[22;27m';
    const always = await search('--store', dir, '--color', 'always', 'infrared');
    assert.ok(always.out.includes(`in ${on}infrared${off} light`), always.out);
    const tty = captureIo();
    await searchCommand(['--store', dir, 'infrared'], { ...tty, isTTY: true } as typeof tty);
    assert.ok(tty.stdout().includes(`${on}infrared${off}`));
    const pipe = captureIo();
    await searchCommand(['--store', dir, 'infrared'], { ...pipe, isTTY: false } as typeof pipe);
    assert.ok(pipe.stdout().includes('[infrared]'));
    const before = process.env['NO_COLOR'];
    process.env['NO_COLOR'] = '1';
    try {
      const noColor = captureIo();
      await searchCommand(['--store', dir, 'infrared'], { ...noColor, isTTY: true } as typeof tty);
      assert.ok(noColor.stdout().includes('[infrared]'));
    } finally {
      if (before === undefined) delete process.env['NO_COLOR'];
      else process.env['NO_COLOR'] = before;
    }
    // JSON is never coloured.
    const j = await search('--store', dir, '--color', 'always', '--json', 'infrared');
    assert.doesNotMatch(j.out, /\x1b/);
  });

  it('shows an untitled page as such and the control characters of pages as spaces', async () => {
    const r = await search('--store', dir, '--color', 'never', 'mirrors');
    assert.match(r.out, /^1\. \(no title\)\n/m);
    const q = await search('--store', dir, '--color', 'never', 'quasar');
    assert.match(q.out, /^1\. Bad \[2J title\n/m);
    assert.match(q.out, /\[Quasar\] light {2}\[31m arrives/);
    assert.doesNotMatch(q.out, /\x1b/);
  });

  it('says so when no page matches', async () => {
    const r = await search('--store', dir, 'telescope', 'dinosaur');
    assert.equal(r.code, 0);
    assert.equal(r.out, 'No kept page contains every word of "telescope dinosaur".\n');
    assert.deepEqual(await json('dinosaur'), {
      query: 'dinosaur',
      scoreWeight: 0.3,
      bestBm25: null,
      hits: [],
    });
  });

  it('says that no crawl indexed text when none did', async () => {
    const plain = join(root, 'plain');
    const store = await openStore(plain, { create: true });
    await store.setMeta('runs', [{ startedAt: 1, endedAt: 2, fetched: 0, fullText: 'none' }]);
    await store.close();
    await assert.rejects(
      search('--store', plain, 'telescope'),
      /no crawl of .*plain indexed its pages' text: crawl with --full-text kept/,
    );
  });

  it('checks its flags and query, naming what is missing, before opening the store', async () => {
    const missing = join(root, 'nope');
    const table: [string[], RegExp][] = [
      [['telescope'], /--store is required/],
      [['--store', dir], /a query is required/],
      [['--store', dir, '  '], /a query is required/],
      [['--store', missing], /a query is required/],
      [['--store', dir, '--limit', '0', 'x'], /--limit must be 1 … 1000, got 0/],
      [['--store', dir, '--limit', '1001', 'x'], /--limit must be 1 … 1000, got 1001/],
      [['--store', dir, '--limit', 'ten', 'x'], /--limit expects a non-negative integer/],
      [
        ['--store', dir, '--score-weight', '1.5', 'x'],
        /--score-weight must be a number in \[0, 1\], got "1\.5"/,
      ],
      [['--store', dir, '--score-weight', 'high', 'x'], /--score-weight .*got "high"/],
      [
        ['--store', missing, '--color', 'red', 'x'],
        /--color must be one of auto, always, never, got "red"/,
      ],
      [['--store', dir, '--frobnicate', 'x'], /frobnicate/],
    ];
    for (const [argv, re] of table) {
      await assert.rejects(searchCommand(argv, captureIo()), (e: Error) => {
        assert.equal((e as { code?: string }).code, 'FC_ERR_CLI_USAGE', `${argv}: ${e.message}`);
        assert.match(e.message, /^focuscrawl search: /);
        assert.match(e.message, re);
        return true;
      });
    }
    const help = await search('--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: focuscrawl search --store DIR/);
  });

  it("refuses a query without words with the store's message", async () => {
    await assert.rejects(searchCommand(['--store', dir, ',.!'], captureIo()), {
      code: 'FC_ERR_INVALID_OPTION',
      message: /query.*",\.!" has no word to search for/,
    });
  });

  it('maps its errors to exit statuses through the CLI: 2 for usage, 1 for the rest', async () => {
    const usage = captureIo();
    assert.equal(await main(['search', '--store', dir], usage), 2);
    assert.match(usage.stderr(), /^FC_ERR_CLI_USAGE: focuscrawl search: a query is required/);
    const noWord = captureIo();
    assert.equal(await main(['search', '--store', dir, '--', '-.-'], noWord), 1);
    assert.match(noWord.stderr(), /^FC_ERR_INVALID_OPTION: .*has no word to search for/);
    const ok = captureIo();
    assert.equal(await main(['search', '--store', dir, '--json', 'telescope'], ok), 0);
    assert.equal((JSON.parse(ok.stdout()) as { hits: unknown[] }).hits.length, 3);
  });

  it('a missing store is an error naming the path', async () => {
    const missing = join(root, 'nope');
    await assert.rejects(searchCommand(['--store', missing, 'x'], captureIo()), {
      code: 'FC_ERR_STORE',
      message: new RegExp(missing.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')),
    });
  });
});

describe('plainSnippet', () => {
  const S = '\uE000';
  const E = '\uE001';
  const table: [string, string, string, [number, number][]][] = [
    ['no marks', 'plain text', 'plain text', []],
    ['one word', `in ${S}infrared${E} light`, 'in infrared light', [[3, 11]]],
    [
      'two words',
      `${S}a${E} b ${S}c${E}`,
      'a b c',
      [
        [0, 1],
        [4, 5],
      ],
    ],
    ['Chinese', `国家${S}电网${E}调度`, '国家电网调度', [[2, 4]]],
    ['offsets in UTF-16 code units', `𠀀${S}电${E}`, '𠀀电', [[2, 3]]],
    ['a stray start mark is dropped', `a ${S}b ${S}c${E} d`, 'a b c d', [[4, 5]]],
    ['a stray end mark is dropped', `a${E} ${S}b${E}`, 'a b', [[2, 3]]],
    ['an unclosed mark is dropped', `${S}a${E} b ${S}c`, 'a b c', [[0, 1]]],
    ['an empty highlight is dropped', `a ${S}${E}b`, 'a b', []],
    ['empty', '', '', []],
  ];
  for (const [what, snippet, text, highlights] of table) {
    it(what, () => assert.deepEqual(plainSnippet(snippet), { text, highlights }));
  }
});

describe('readableHits', () => {
  const hit = (bm25: number, relevance: number, score: number | null) => ({
    url: 'http://a.test/',
    title: null,
    relevance,
    pageRank: null,
    score,
    bm25,
    rank: 0,
    snippet: '',
  });
  const cases: [string, number, ReturnType<typeof hit>, { textMatch: number; p: number }][] = [
    ['the best match', 2, hit(2, 0.4, null), { textMatch: 1, p: 0.4 }],
    ['half the best', 2, hit(1, 0.4, 0.7), { textMatch: 0.5, p: 0.7 }],
    ['P is the score once ranked, even 0', 2, hit(1, 0.4, 0), { textMatch: 0.5, p: 0 }],
    ['no best BM25: every match alike', 0, hit(0, 0.4, null), { textMatch: 1, p: 0.4 }],
  ];
  for (const [what, best, h, want] of cases) {
    it(what, () => {
      const [r] = readableHits([h], best);
      assert.deepEqual(
        { textMatch: r?.textMatch, p: r?.p, position: r?.position },
        {
          ...want,
          position: 1,
        },
      );
    });
  }
});

describe('scoreLine', () => {
  const cases: [number, number, RegExp][] = [
    [1, 0.3, /^1 page shown, best first; score = 0\.7·text match \+ 0\.3·P \(/],
    [10, 0, /^10 pages shown, best first; score = text match \(/],
    [2, 1, /^2 pages shown, best first; score = P \(/],
    [2, 1 / 3, /score = 0\.67·text match \+ 0\.33·P/],
  ];
  for (const [count, w, re] of cases)
    it(`${count} hits, w = ${w}`, () => assert.match(scoreLine(count, w), re));
});

describe('formatHits', () => {
  const hit = {
    url: 'http://a.test/x',
    title: '  A   title\n',
    relevance: 0.25,
    pageRank: 0.5,
    score: 0.75,
    bm25: 1.5e-6,
    rank: 0.9,
    snippet: 'the \uE000word\uE001 here',
    position: 1,
    textMatch: 0.987,
    p: 0.75,
  };

  it('a header, then one block per hit, numbers aligned, two decimals', () => {
    const many = Array.from({ length: 10 }, (_, i) => ({
      ...hit,
      url: `http://a.test/${i}`,
      position: i + 1,
    }));
    const [header, ...out] = formatHits('word', many, false).split('\n\n');
    assert.equal(header, scoreLine(10, 0.3));
    assert.equal(out.length, 10);
    assert.deepEqual(out[0]?.split('\n'), [
      ' 1. A title',
      '    http://a.test/0',
      '    score 0.90  text match 0.99  P 0.75  relevance 0.25  PageRank 0.50',
      '    the [word] here',
    ]);
    assert.match(out[9] ?? '', /^10\. A title\n {4}http:\/\/a\.test\/9\n/);
  });

  it('leaves out an empty snippet, shows PageRank - when not ranked', () => {
    assert.equal(
      formatHits('x', [{ ...hit, pageRank: null, snippet: '' }], false, 0),
      `${scoreLine(1, 0)}\n\n1. A title\n   http://a.test/x\n   score 0.90  text match 0.99  P 0.75  relevance 0.25  PageRank -`,
    );
  });
});
