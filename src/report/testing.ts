// A synthetic crawl written through the Store API, for the report's tests and for
// trying the report out. Deterministic for a given seed.

import type { CrawlRunRecord, StoredTopic } from '../crawl/index.js';
import type { Outcome, Store } from '../store/index.js';
import { seededRandom as prng } from '../util/index.js';

/** A title a hostile page could carry: it must come out of the report inert. */
export const EVIL_TITLE = '</title><script>alert(1)</script><img src=x onerror=alert(2)>';

export interface SyntheticCrawl {
  /** Fetch outcomes recorded. */
  fetched: number;
  complete: number;
  discard: number;
  error: number;
  firstFetchAt: number;
  lastFetchAt: number;
}

const HOSTS = ['grid.test', 'power.test', 'news.test', 'energy.test', '电网.test'];

/**
 * Crawls a made-up web into `store`: about 10% of fetches fail, pages at relevance
 * ≥ 0.1 are kept and add three links, the others are discarded. The topic is
 * 电网 (threshold 0.1) and two runs are recorded. Page 3 carries `EVIL_TITLE` and
 * relevance 0.999, so it tops the ranking.
 */
export async function writeSyntheticCrawl(
  store: Store,
  options: { outcomes: number; seed?: number; startAt?: number; gapMs?: number },
): Promise<SyntheticCrawl> {
  const rnd = prng(options.seed ?? 1);
  const gap = options.gapMs ?? 250;
  const topic: StoredTopic = {
    name: '电网',
    keywords: { 电网: 1, 'power grid': 0.8, 变电站: 0.6 },
    threshold: 0.1,
  };
  await store.setMeta('topic', topic);
  await store.addSeeds(HOSTS.slice(0, 3).map((h) => `http://${h}/`));
  const start = options.startAt ?? Date.now() + 1000;
  let t = start;
  let n = 0;
  const tally = { complete: 0, discard: 0, error: 0 };
  let next = 0;
  while (n < options.outcomes) {
    const batch = await store.claim(Math.min(16, options.outcomes - n));
    if (batch.length === 0) break;
    const outcomes: Outcome[] = batch.map((c) => {
      n++;
      t += gap;
      if (n > 3 && rnd() < 0.1) {
        tally.error++;
        return {
          url: c.url,
          state: 'error',
          result: { fetchedAt: t, error: 'FC_ERR_NETWORK: reset' },
        };
      }
      const relevance = n === 3 ? 0.999 : Math.round(rnd() ** 2 * 0.8 * 1000) / 1000;
      const state = relevance >= 0.1 ? 'complete' : 'discard';
      tally[state]++;
      const newUrls =
        state === 'complete'
          ? [0, 1, 2].map(() => {
              next++;
              return {
                url: new URL(`http://${HOSTS[next % HOSTS.length]}/p/${next}`).href,
                depth: c.depth + 1,
                priority: relevance,
                discoveredAt: t,
              };
            })
          : [];
      const title =
        n === 3 ? EVIL_TITLE : n % 2 === 0 ? `电网新闻 第${n}页` : `Power grid page ${n}`;
      return {
        url: c.url,
        state,
        result: { fetchedAt: t, status: 200, bytes: 1000 + n, title, relevance, newUrls },
      };
    });
    await store.commit(outcomes);
  }
  const mid = start + Math.floor((t - start) / 2);
  const runs: CrawlRunRecord[] = [
    {
      startedAt: start - 500,
      endedAt: mid,
      fetched: Math.floor(n / 2),
      stopReason: 'stopped',
      strategy: 'best-first',
    },
    {
      startedAt: mid + 1000,
      endedAt: t + 500,
      fetched: n - Math.floor(n / 2),
      stopReason: 'max-pages',
      strategy: 'best-first',
    },
  ];
  await store.setMeta('runs', runs);
  return { fetched: n, ...tally, firstFetchAt: start + gap, lastFetchAt: t };
}
