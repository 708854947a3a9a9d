// What the full-text search benchmarks share (bench/search.mjs on SQLite, bench/search-pg.ts
// on SQLite and PostgreSQL side by side): the pages of the fill, the outcomes committed
// for them, and the query mix, so that every store is filled and queried alike.

/** The large test web, seed 1: 120,000 pages; beyond, pages repeat under `?copy=K`. */
export const WEB = { seed: 1, size: 'large' };

// Classes of queries. Share of the large web's pages (seed 1) that match: 专题 and
// home about 50 %; 电网, 调度, 显示器, telescope, coach, power grid about 9 %; the
// common pairs and triples 5–9 %, tulip telescope (two topics, on general pages) about
// 1 %; 推荐, 以下链接, sent, links about 0.02 % (some 35 of 100,000 pages); the last
// rare query of each language matches no page.
export const QUERIES = {
  'zh common, 1 word': ['电网', '调度', '显示器', '专题'],
  'zh common, 2–3 words': ['电网 调度', '国家电网 特高压 换流站'],
  'zh rare': ['推荐', '以下链接', '电网 推荐', '电网 望远镜'],
  'en common, 1 word': ['home', 'telescope', 'coach'],
  'en common, 2–3 words': [
    'power grid',
    'head coach championship',
    'watering can compost',
    'tulip telescope',
  ],
  'en rare': ['sent', 'links', 'sent links', 'telescope dinosaur'],
};

/**
 * The `i`-th page of the fill: its URL (with a suffix when the web repeats) and what
 * the crawler extracts from it (`tools`: the parser and the test web, from dist/ or
 * src/ as the caller runs).
 */
export function pageAt(tools, urls, i) {
  const base = urls[i % urls.length];
  const copy = Math.floor(i / urls.length);
  const url = copy === 0 ? base : `${base}?copy=${copy}`;
  const html = tools.pageHtml(WEB, base) ?? '';
  const a = tools.analyzeBody(Buffer.from(html), 'text/html; charset=utf-8', url, {
    maxLinks: 0,
  });
  return { url, title: a.page?.title ?? null, text: a.page?.text ?? '', html };
}

/**
 * The outcomes committed for `items`, the pages `first` … of the fill: kept pages,
 * their relevance cycling through 0 … 0.99 (P in the order of hits), with their text
 * or without (the store then indexes nothing); with `bodies`, their HTML is stored too (as a
 * crawl stores kept pages' bodies by default).
 */
export function outcomesOf(items, first, fetchedAt, withText, bodies = false) {
  return items.map((p, k) => ({
    url: p.url,
    state: 'complete',
    result: {
      fetchedAt: fetchedAt + k,
      status: 200,
      contentType: 'text/html; charset=utf-8',
      bytes: p.text.length,
      title: p.title,
      relevance: ((first + k) % 100) / 100,
      ...(withText ? { text: p.text } : {}),
      ...(bodies ? { body: Buffer.from(p.html) } : {}),
    },
  }));
}
