// The change rates a watch run's last plan estimated (kept in its store with each page's
// revisit record), set against the articles' true rates. The store's rates are changes
// per real day (the crawler knows only its own clock); the articles' are per simulated
// day, so λ̂ / clockSpeed is the comparable figure.
import { openStore } from '../../src/store/index.js';
import { type NewsValidator, newsArticles, type WebSize } from '../../src/testweb/index.js';
import { bucketOf, RATE_BUCKETS } from './truth.js';

export interface EstimateFigures {
  /** Articles with an estimate (a revisit record with a rate). */
  estimated: number;
  /** Rank correlation of λ̂ and λ over the changing articles with an estimate. */
  spearman: number | null;
  /** Per true-rate bucket: articles, median λ̂ and median λ (per simulated day). */
  buckets: {
    bucket: string;
    pages: number;
    medianEstimate: number | null;
    medianTrue: number | null;
  }[];
  /** Revisits recorded per article (the first fetch not counted), median. */
  medianVisits: number | null;
  /** The rank correlation by the validator the article's server sends. */
  byValidator: { validator: NewsValidator; spearman: number | null }[];
}

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2;
    i = j + 1;
  }
  return r;
}

function spearman(a: readonly number[], b: readonly number[]): number | null {
  if (a.length < 3) return null;
  const ra = ranks(a);
  const rb = ranks(b);
  const m = (ra.length - 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    const x = ra[i]! - m;
    const y = rb[i]! - m;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da === 0 || db === 0 ? null : num / Math.sqrt(da * db);
}

export async function estimateFigures(
  dir: string,
  seed: number,
  size: WebSize,
  clockSpeed: number,
  existedAtStart: (url: string) => boolean,
): Promise<EstimateFigures> {
  const store = await openStore(dir, { readonly: true });
  const est = new Map<string, { rate: number | null; visits: number }>();
  try {
    for await (const r of store.revisits()) est.set(r.url, { rate: r.rate, visits: r.visits });
  } finally {
    await store.close();
  }
  const articles = newsArticles(seed, size).filter((a) => existedAtStart(a.url));
  const pairs: {
    bucket: string;
    est: number;
    truth: number;
    visits: number;
    validator: NewsValidator;
  }[] = [];
  for (const a of articles) {
    const e = est.get(a.url);
    if (e === undefined || e.rate === null) continue;
    pairs.push({
      bucket: bucketOf(a.ratePerDay),
      est: e.rate / clockSpeed,
      truth: a.ratePerDay,
      visits: e.visits,
      validator: a.validator,
    });
  }
  const changing = pairs.filter((p) => p.truth > 0);
  return {
    estimated: pairs.length,
    spearman: spearman(
      changing.map((p) => p.est),
      changing.map((p) => p.truth),
    ),
    buckets: RATE_BUCKETS.map((b) => {
      const ps = pairs.filter((p) => p.bucket === b.name);
      return {
        bucket: b.name,
        pages: ps.length,
        medianEstimate: median(ps.map((p) => p.est)),
        medianTrue: median(ps.map((p) => p.truth)),
      };
    }),
    medianVisits: median(pairs.map((p) => p.visits)),
    byValidator: (['etag', 'last-modified', 'none'] as const).map((validator) => {
      const ps = changing.filter((p) => p.validator === validator);
      return {
        validator,
        spearman: spearman(
          ps.map((p) => p.est),
          ps.map((p) => p.truth),
        ),
      };
    }),
  };
}
