// Figures of one watch run against news.test's ground truth, from the server's request
// log only: the time of each answered request (200 or 304) on the simulated clock
// decides which version the crawler holds. The stored copy of a URL at T is what the
// last answered request before T returned; it is fresh at T iff the page's fingerprint
// then equals its fingerprint at T (newsFingerprint). A page never fetched is stale.
import {
  allocateRevisits,
  expectedFreshness,
  MS_PER_DAY,
  type RevisitPage,
} from '../../src/schedule/index.js';
import {
  NEWS_HOST,
  newsArticles,
  newsChangeTimes,
  newsFingerprint,
  newsPagesAt,
  type RequestLogEntry,
  type WebSize,
} from '../../src/testweb/index.js';

const HOUR_MS = 3_600_000;

/** What one run left: the server's log and how its real times map to the simulated clock. */
export interface RunLog {
  seed: number;
  size: WebSize;
  entries: readonly RequestLogEntry[];
  /** Simulated ms of a real arrival time (ms). */
  simOf: (ts: number) => number;
  /** The evaluation window on the simulated clock: [start, end]. */
  start: number;
  end: number;
  /** The window's length in real ms (for the budget's use). */
  realMs: number;
  /** The budget, for the window check. */
  budget: { requests: number; perMs: number };
  /** Freshness is averaged over this many instants evenly spread over the whole run. */
  samples: number;
}

/** Change-rate buckets of the articles (true λ, changes per simulated day). */
export const RATE_BUCKETS = [
  { name: 'never', lo: 0, hi: 0 },
  { name: '<0.3', lo: 0, hi: 0.3 },
  { name: '0.3–3', lo: 0.3, hi: 3 },
  { name: '≥3', lo: 3, hi: Number.POSITIVE_INFINITY },
] as const;

export function bucketOf(rate: number): string {
  if (rate === 0) return 'never';
  for (const b of RATE_BUCKETS) if (b.hi > 0 && rate >= b.lo && rate < b.hi) return b.name;
  return '≥3';
}

export interface BucketFigures {
  bucket: string;
  /** Articles that existed at the start. */
  pages: number;
  /** Answered requests per page per simulated day, second half. */
  visitsPerDay: number;
  /** Mean freshness in the second half. */
  freshness: number;
}

export interface RunFigures {
  /** Requests that reached the server, robots.txt excluded. */
  requests: number;
  statuses: Record<string, number>;
  simDays: number;
  /** Requests per simulated day over the second half. */
  secondHalfPerSimDay: number;
  /** Share of the existing pages whose stored copy shows what the page shows, mean over the second half. */
  freshness: number;
  /** The same over the whole run. */
  freshnessWholeRun: number;
  /** Pages that existed at the start and changed at least once during the run. */
  changingPages: number;
  freshnessChanging: number;
  freshnessChangingWholeRun: number;
  /** The changing pages split: articles, and list pages (where new articles appear). */
  changingArticles: number;
  freshnessChangingArticles: number;
  freshnessChangingLists: number;
  /** Pages that existed at the start and did not change during the run. */
  freshnessStill: number;
  /** Pages (articles and list pages) born during the run. */
  born: {
    pages: number;
    articles: number;
    fetched: number;
    articlesFetched: number;
    medianDelayHours: number | null;
    /** Delays of the fetched ones, simulated hours, ascending. */
    delaysHours: number[];
  };
  /** 200s that brought a version other than the one held, and first fetches. */
  changedCopies: number;
  newPages: number;
  requestsPerUseful: number | null;
  /** Real seconds from the start until every page that existed at the start had been fetched; null if some never were. */
  siteFetchedS: number | null;
  /** Most requests (robots.txt excluded) in any window of one budget unit. */
  maxInWindow: number;
  /** Freshness (all pages, changing pages) and the share of the budget used, in ten equal slices of the run. */
  series: { all: number; changing: number; budgetUse: number }[];
  buckets: BucketFigures[];
}

/** A sorted array's last index with value < x, or -1. */
function lastBefore(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const mean = (xs: readonly number[]): number =>
  xs.length === 0 ? Number.NaN : xs.reduce((t, x) => t + x, 0) / xs.length;

/** The largest number of times within any half-open window [t, t + width). */
export function maxInWindow(times: readonly number[], width: number): number {
  const s = [...times].sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < s.length; i++) {
    while ((s[i] as number) - (s[j] as number) >= width) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

interface Held {
  /** Simulated times of the answered requests, ascending. */
  at: number[];
  /** The fingerprint each answer held. */
  fp: string[];
}

export function runFigures(log: RunLog): RunFigures {
  const { seed, size, start, end } = log;
  const fp = (url: string, t: number) => newsFingerprint(seed, size, url, t);
  const reqs = log.entries.filter((e) => e.host === NEWS_HOST && e.path !== '/robots.txt');
  const statuses: Record<string, number> = {};
  for (const e of reqs) statuses[e.status] = (statuses[e.status] ?? 0) + 1;

  // What each URL's answers held, and the useful fetches.
  const held = new Map<string, Held>();
  const firstFetch = new Map<string, number>();
  let changedCopies = 0;
  let newPages = 0;
  for (const e of [...reqs].sort((a, b) => a.ts - b.ts)) {
    if (e.status !== 200 && e.status !== 304) continue;
    const url = `http://${NEWS_HOST}${e.path}`;
    const t = log.simOf(e.ts);
    const f = fp(url, t);
    if (f === null) continue; // answered, but not a page by the ground truth (never seen)
    let h = held.get(url);
    if (h === undefined) {
      h = { at: [], fp: [] };
      held.set(url, h);
    }
    const before = h.fp[h.fp.length - 1];
    if (e.status === 200) {
      if (before === undefined) {
        newPages++;
        firstFetch.set(url, t);
      } else if (before !== f) changedCopies++;
    }
    h.at.push(t);
    h.fp.push(f);
  }

  const articles = newsArticles(seed, size);
  const rateOf = new Map(articles.map((a) => [a.url, a.ratePerDay]));
  const atStart = new Set(newsPagesAt(seed, size, start));
  const changing = new Set<string>();
  for (const url of atStart) if (fp(url, end) !== fp(url, start)) changing.add(url);

  // Freshness at evenly spread instants.
  const mid = (start + end) / 2;
  const freshAll: { t: number; all: number; changing: number; articles: number; lists: number }[] =
    [];
  const perUrl = new Map<string, { fresh: number; n: number }>();
  for (let k = 0; k < log.samples; k++) {
    const t = start + ((k + 0.5) * (end - start)) / log.samples;
    let fresh = 0;
    let n = 0;
    let freshC = 0;
    let nC = 0;
    let freshA = 0;
    let nA = 0;
    const pages = newsPagesAt(seed, size, t);
    for (const url of pages) {
      const h = held.get(url);
      const i = h === undefined ? -1 : lastBefore(h.at, t);
      const ok = i >= 0 && (h as Held).fp[i] === fp(url, t);
      n++;
      if (ok) fresh++;
      if (changing.has(url)) {
        nC++;
        if (ok) freshC++;
        if (rateOf.has(url)) {
          nA++;
          if (ok) freshA++;
        }
      }
      if (t >= mid && atStart.has(url)) {
        const u = perUrl.get(url) ?? { fresh: 0, n: 0 };
        u.n++;
        if (ok) u.fresh++;
        perUrl.set(url, u);
      }
    }
    freshAll.push({
      t,
      all: fresh / n,
      changing: nC === 0 ? Number.NaN : freshC / nC,
      articles: nA === 0 ? Number.NaN : freshA / nA,
      lists: nC === nA ? Number.NaN : (freshC - freshA) / (nC - nA),
    });
  }
  const second = freshAll.filter((s) => s.t >= mid);
  const still = [...perUrl].filter(([u]) => !changing.has(u)).map(([, v]) => v.fresh / v.n);
  const series: RunFigures['series'] = [];
  for (let s = 0; s < 10; s++) {
    const lo = start + ((end - start) * s) / 10;
    const hi = start + ((end - start) * (s + 1)) / 10;
    const xs = freshAll.filter((x) => x.t >= lo && x.t < hi);
    const used = reqs.filter((e) => {
      const t = log.simOf(e.ts);
      return t >= lo && t < hi;
    }).length;
    series.push({
      all: mean(xs.map((x) => x.all)),
      changing: mean(xs.map((x) => x.changing)),
      budgetUse: used / ((log.budget.requests * log.realMs) / 10 / log.budget.perMs),
    });
  }

  // Pages born during the run: coverage and delay to the first fetch.
  const atEnd = newsPagesAt(seed, size, end);
  const born = atEnd.filter((u) => !atStart.has(u));
  const bornAt = (url: string): number => {
    const c = newsChangeTimes(seed, size, url, start, end);
    return c[0] ?? start;
  };
  const delays: number[] = [];
  let articlesBorn = 0;
  let articlesFetched = 0;
  for (const url of born) {
    const isArticle = rateOf.has(url);
    if (isArticle) articlesBorn++;
    const f = firstFetch.get(url);
    if (f === undefined || f > end) continue;
    if (isArticle) articlesFetched++;
    delays.push((f - bornAt(url)) / HOUR_MS);
  }
  delays.sort((a, b) => a - b);

  // Visits and freshness by true change rate (articles present at the start).
  const secondDays = (end - mid) / MS_PER_DAY;
  const buckets: BucketFigures[] = RATE_BUCKETS.map((b) => {
    const urls = articles.filter((a) => atStart.has(a.url) && bucketOf(a.ratePerDay) === b.name);
    let visits = 0;
    for (const a of urls) {
      const h = held.get(a.url);
      if (h !== undefined) visits += h.at.filter((t) => t >= mid && t <= end).length;
    }
    const f = urls.map((a) => {
      const u = perUrl.get(a.url);
      return u === undefined ? 0 : u.fresh / u.n;
    });
    return {
      bucket: b.name,
      pages: urls.length,
      visitsPerDay: urls.length === 0 ? 0 : visits / urls.length / secondDays,
      freshness: mean(f),
    };
  });

  let lastFirst = start;
  for (const url of atStart)
    lastFirst = Math.max(lastFirst, firstFetch.get(url) ?? Number.POSITIVE_INFINITY);
  const siteFetchedS =
    lastFirst > end ? null : ((lastFirst - start) / (end - start)) * (log.realMs / 1000);
  const useful = changedCopies + newPages;
  const secondHalfRequests = reqs.filter((e) => {
    const t = log.simOf(e.ts);
    return t >= mid && t <= end;
  }).length;
  return {
    requests: reqs.length,
    statuses,
    simDays: (end - start) / MS_PER_DAY,
    secondHalfPerSimDay: secondHalfRequests / secondDays,
    freshness: mean(second.map((s) => s.all)),
    freshnessWholeRun: mean(freshAll.map((s) => s.all)),
    changingPages: changing.size,
    freshnessChanging: mean(second.map((s) => s.changing)),
    freshnessChangingWholeRun: mean(freshAll.map((s) => s.changing)),
    changingArticles: [...changing].filter((u) => rateOf.has(u)).length,
    freshnessChangingArticles: mean(second.map((s) => s.articles)),
    freshnessChangingLists: mean(second.map((s) => s.lists)),
    freshnessStill: mean(still),
    born: {
      pages: born.length,
      articles: articlesBorn,
      fetched: delays.length,
      articlesFetched,
      medianDelayHours: median(delays),
      delaysHours: delays,
    },
    changedCopies,
    newPages,
    requestsPerUseful: useful === 0 ? null : reqs.length / useful,
    siteFetchedS,
    maxInWindow: maxInWindow(
      reqs.map((e) => e.ts),
      log.budget.perMs,
    ),
    series,
    buckets,
  };
}

/** The expected freshness the true rates allow at `revisitsPerDay` revisits per simulated day. */
export interface Ceiling {
  revisitsPerDay: number;
  pages: number;
  /** Over the pages that existed at the start and changed during the run. */
  uniform: number;
  optimal: number;
  /** Over every page. */
  uniformAll: number;
  optimalAll: number;
}

/**
 * The stationary expected freshness (schedule/freshness.ts) of revisiting the pages that
 * exist mid-run at their true rates (articles: their λ; list pages: their changes during
 * the run over its length), every page equally often or as allocateRevisits chooses
 * with the true rates: what a perfect estimate could give at this revisit budget.
 */
export function ceiling(
  seed: number,
  size: WebSize,
  start: number,
  end: number,
  revisitsPerDay: number,
): Ceiling {
  const days = (end - start) / MS_PER_DAY;
  const rateOf = new Map(newsArticles(seed, size).map((a) => [a.url, a.ratePerDay]));
  const urls = newsPagesAt(seed, size, (start + end) / 2);
  const pages: RevisitPage[] = urls.map((url) => ({
    id: url,
    ratePerDay:
      rateOf.get(url) ??
      newsChangeTimes(seed, size, url, start, end).filter((t) => t > start).length / days,
  }));
  const plan = allocateRevisits(pages, revisitsPerDay);
  const f = revisitsPerDay / pages.length;
  let u = 0;
  let o = 0;
  let ua = 0;
  let oa = 0;
  let n = 0;
  for (const p of pages) {
    const fu = expectedFreshness(p.ratePerDay, f);
    const fo = expectedFreshness(p.ratePerDay, plan.frequencies.get(p.id) ?? 0);
    ua += fu;
    oa += fo;
    const changed =
      newsFingerprint(seed, size, p.id, start) !== null &&
      newsFingerprint(seed, size, p.id, start) !== newsFingerprint(seed, size, p.id, end);
    if (changed) {
      u += fu;
      o += fo;
      n++;
    }
  }
  return {
    revisitsPerDay,
    pages: pages.length,
    uniform: u / n,
    optimal: o / n,
    uniformAll: ua / pages.length,
    optimalAll: oa / pages.length,
  };
}
