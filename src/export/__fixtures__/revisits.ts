// A watched sample store: the export sample store (../testing.ts) with revisits
// recorded through the Store API, for the tests of status, export and the report.
import { openStore, type Store } from '../../store/index.js';
import { buildSampleStore, SAMPLE, T0 } from '../testing.js';

/** When the sample revisits are made: three rounds of two, then `p3` fetched. */
export const REVISIT_TIMES = {
  round1: T0 + 600_000,
  round2: T0 + 4_000_000,
  round3: T0 + 7_200_000,
  p3: T0 + 5_000_000,
  /** Home's next due time after round 3 (p1 is gone by then). */
  homeDue: T0 + 9_000_000,
} as const;

/**
 * Revisits of the sample store's two kept pages (`home`, `p1`), recorded through
 * the Store API, and `p3` fetched between rounds 2 and 3:
 *
 * | round | home | p1 |
 * | --- | --- | --- |
 * | 1 (T0 + 10 min) | unchanged (304), λ̂ 0.5 | changed (200, new copy), λ̂ 3 |
 * | 2 (T0 + 4,000 s) | changed (200) | unchanged (304) |
 * | 3 (T0 + 2 h) | failed (no answer) | gone (404) |
 *
 * After them home is due at `REVISIT_TIMES.homeDue` and p1 is gone. The last hour of
 * records holds rounds 2 and 3 and the fetch of p3: 1 fetch + 4 revisits.
 */
export async function writeSampleRevisits(store: Store): Promise<void> {
  const s = SAMPLE;
  const t = REVISIT_TIMES;
  await store.scheduleRevisits([
    { url: s.home, dueAt: t.round1, rate: 0.5 },
    { url: s.p1, dueAt: t.round1, rate: 0.5 },
  ]);
  const claim = async (now: number) => {
    const due = await store.claimDue(2, { now });
    if (due.map((d) => d.url).join(' ') !== [s.home, s.p1].join(' '))
      throw new Error('sample revisits: unexpected claim');
  };
  await claim(t.round1);
  await store.recordVisits([
    {
      url: s.home,
      at: t.round1,
      status: 304,
      change: 'unchanged',
      contentHash: 'h-home',
      textHash: '00000000000000aa',
      rate: 0.5,
      dueAt: t.round2,
    },
    {
      url: s.p1,
      at: t.round1 + 1000,
      status: 200,
      change: 'changed',
      etag: '"p1-v2"',
      lastModified: 'Wed, 01 May 2024 12:05:00 GMT',
      lastModifiedMs: T0 + 300_000,
      contentHash: 'h-p1-v2',
      textHash: '00000000000000b2',
      page: { status: 200, contentType: 'text/html', bytes: 64, title: 'p1 v2', relevance: 0.6 },
      rate: 3,
      dueAt: t.round2,
    },
  ]);
  await claim(t.round2);
  await store.recordVisits([
    {
      url: s.home,
      at: t.round2,
      status: 200,
      change: 'changed',
      contentHash: 'h-home-v2',
      textHash: '00000000000000a2',
      dueAt: t.round3,
    },
    {
      url: s.p1,
      at: t.round2 + 1000,
      status: 304,
      change: 'unchanged',
      contentHash: 'h-p1-v2',
      textHash: '00000000000000b2',
      dueAt: t.round3,
    },
  ]);
  const [p3] = await store.claim(1);
  if (p3?.url !== s.p3) throw new Error('sample revisits: p3 was not claimed');
  await store.complete(s.p3, { fetchedAt: t.p3, status: 200, bytes: 10, relevance: 0.3 });
  await claim(t.round3);
  await store.recordVisits([
    {
      url: s.home,
      at: t.round3,
      status: null,
      change: 'failed',
      error: 'FC_ERR_NETWORK: socket hang up, "retry" later',
      dueAt: t.homeDue,
    },
    { url: s.p1, at: t.round3 + 1000, status: 404, change: 'gone', dueAt: null },
  ]);
}

/** A watch's record (src/watch `WatchRecord`) for the sample revisits: 30/min. */
export const SAMPLE_WATCH = {
  budget: { requests: 30, perMs: 60_000 },
  policy: 'freshness' as const,
  discoveryShare: 0.5,
  startedAt: T0 + 500_000,
};

/** A revisit plan (src/watch `PlanSummary`) made after the sample revisits. */
export const SAMPLE_PLAN = {
  at: T0 + 7_300_000,
  policy: 'freshness' as const,
  pages: 2,
  scheduled: 1,
  givenUp: 0,
  refreshPerDay: 21_600,
  discoveryPerDay: 21_600,
  expectedFreshness: 0.8731,
  rates: { '<0.01': 0, '0.01–0.1': 0, '0.1–1': 1, '1–10': 1, '10–100': 0, '≥100': 0 },
  next: [{ url: SAMPLE.home, dueAt: REVISIT_TIMES.homeDue, rate: 0.5 }],
};

/**
 * Builds the sample store (`buildSampleStore`) with `writeSampleRevisits` applied and
 * `meta` stored as given (the watch's records: their keys live in src/watch, which
 * this stage does not import). Returns its directory; the store is closed.
 */
export async function buildRevisitStore(meta: Record<string, unknown> = {}): Promise<string> {
  const dir = await buildSampleStore();
  const store = await openStore(dir);
  try {
    await writeSampleRevisits(store);
    for (const [k, v] of Object.entries(meta)) await store.setMeta(k, v);
  } finally {
    await store.close();
  }
  return dir;
}
