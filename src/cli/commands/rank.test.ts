import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { META_RANK_SETTINGS, type RankSettings } from '../../crawl/rank-settings.js';
import type { RankedPage, RankingSummary } from '../../ranking/index.js';
import { CRAWL, crawlRound1, crawlRound2, EXPECTED } from '../../ranking/testing.js';
import { openStore, type Store } from '../../store/index.js';
import { tempDir } from '../../util/testing.js';
import type { Io } from '../index.js';
import { rankCommand } from './rank.js';

type RankJson = RankingSummary & { store: string; kept: RankSettings; top: RankedPage[] };

/** A SQLite store in a new temporary directory, after the given rounds of the test crawl. */
async function buildStore(rounds: 1 | 2): Promise<string> {
  const dir = join(tempDir('rank-cli'), 'store');
  const store = await openStore(dir, { create: true });
  try {
    await crawlRound1(store);
    if (rounds === 2) await crawlRound2(store);
  } finally {
    await store.close();
  }
  return dir;
}

async function withStore<T>(dir: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(dir);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function rank(...argv: string[]) {
  let out = '';
  let err = '';
  const io: Io = {
    out: (s) => {
      out += s.endsWith('\n') ? s : `${s}\n`;
    },
    err: (s) => {
      err += s.endsWith('\n') ? s : `${s}\n`;
    },
  };
  const code = await rankCommand(argv, io);
  return { code, out, err };
}

const near = (actual: number | null | undefined, expected: number, what = '') =>
  assert.ok(
    typeof actual === 'number' && Math.abs(actual - expected) < 1e-9,
    `${what} ${actual} ≈ ${expected}`,
  );

const TIGHT = ['--tolerance', '1e-13', '--max-iterations', '500'];

describe('focuscrawl rank', () => {
  it('--json: the summary and the top pages, stored; a resumed crawl is ranked again', async () => {
    const dir = await buildStore(1);
    const first = JSON.parse((await rank('--store', dir, '--json', ...TIGHT)).out) as RankJson;
    assert.equal(first.store, dir);
    assert.deepEqual(
      [first.algorithm, first.damping, first.w1, first.w2, first.nodes, first.edges, first.pages],
      ['pagerank', 0.8, 0.6, 0.4, 5, 5, 3],
    );
    assert.equal(first.converged, true);
    assert.deepEqual(
      first.top.map((t) => t.url),
      [CRAWL.a, CRAWL.b],
    );
    near(first.top[1]?.score, EXPECTED.round1.score.b, 'P(b)');
    near(first.top[1]?.pageRank, EXPECTED.round1.pageRank.b, 'R(b)');

    await withStore(dir, crawlRound2);
    const r = await rank('--store', dir, '--json', ...TIGHT);
    assert.equal(r.code, 0);
    const second = JSON.parse(r.out) as RankJson;
    assert.deepEqual([second.nodes, second.edges, second.pages], [5, 7, 4]);
    assert.deepEqual(
      second.top.map((t) => [t.url, t.title, t.relevance]),
      [
        [CRAWL.a, 'Alpha', 0.9],
        [CRAWL.b, 'Beta', 0.5],
        [CRAWL.x, 'Xi', 0.4],
      ],
    );
    near(second.top[2]?.score, EXPECTED.round2.score.x, 'P(x)');
    near(second.top[2]?.pageRank, EXPECTED.round2.pageRank.x, 'R(x)');
    await withStore(dir, async (store) => {
      const { top: _top, store: _dir, kept: _kept, ...summary } = second;
      assert.deepEqual(await store.getMeta('ranking'), summary);
      for await (const p of store.pages()) {
        if (p.url === CRAWL.c) {
          near(p.pageRank, EXPECTED.round2.pageRank.c, 'R(c)');
          assert.equal(p.score, null);
        }
      }
    });
  });

  it('prints a summary and a table of the top pages by P', async () => {
    const dir = await buildStore(2);
    const r = await rank('--store', dir, ...TIGHT, '--w1', '0.5', '--w2', '0.5', '--top', '2');
    assert.equal(r.code, 0);
    const o = r.out;
    assert.match(o, /^Algorithm\s+pagerank \(d = 0\.8\)$/m);
    assert.match(o, /^Graph\s+5 nodes, 7 edges$/m);
    assert.match(o, /^Iterations\s+\d+ \(converged\)$/m);
    assert.match(o, /^Pages scored\s+4$/m);
    assert.match(o, /^Final score\s+P = 0\.5·relevance \+ 0\.5·R$/m);
    assert.match(o, /^Time\s+\d+ ms$/m);
    assert.match(o, /^Top 2 pages by P$/m);
    assert.match(o, /^ {2}\s*P\s+relevance\s+PR\s+URL\s+title$/m);
    // P(a) = 0.5·0.9 + 0.5·1; P(b) = 0.5·0.5 + 0.5·19/27 = 0.6019.
    assert.match(o, /^ {2}0\.9500\s+0\.9000\s+1\.0000\s+http:\/\/a\.test\/\s+Alpha$/m);
    assert.match(o, /^ {2}0\.6019\s+0\.5000\s+0\.7037\s+http:\/\/a\.test\/b\s+Beta$/m);
    // The third page (title Xi) is not in the top 2. Regression: the check read the whole
    // output, whose store path is a random temporary name that can hold "Xi" too.
    assert.doesNotMatch(o.slice(o.indexOf('Top 2 pages by P')), /Xi/);
    const none = await rank('--store', dir, '--top', '0');
    assert.doesNotMatch(none.out, /Top|URL/);
  });

  it('--algorithm hits: the authority score plays R', async () => {
    const dir = await buildStore(1);
    const r = await rank('--store', dir, '--algorithm', 'hits', '--json', '--tolerance', '1e-12');
    const d = JSON.parse(r.out) as RankJson;
    assert.equal(d.algorithm, 'hits');
    assert.equal(d.damping, null);
    // Authorities: b, c, x 1; a, e 0 (see ranking/rank-store.test.ts).
    assert.deepEqual(
      d.top.map((t) => t.url),
      [CRAWL.b, CRAWL.a],
    );
    near(d.top[0]?.score, 0.6 * 0.5 + 0.4, 'P(b)');
    near(d.top[1]?.score, 0.6 * 0.9, 'P(a)');
    const text = await rank('--store', dir, '--algorithm', 'hits');
    assert.match(text.out, /^Algorithm\s+hits$/m);
    assert.match(text.out, /^ {2}\s*P\s+relevance\s+auth\s+URL\s+title$/m);
  });

  it('the weights, damping and algorithm given are kept until changed', async () => {
    const dir = await buildStore(2);
    const json = async (...argv: string[]) =>
      JSON.parse((await rank('--store', dir, '--json', ...TIGHT, ...argv)).out) as RankJson;
    const plain = await json();
    assert.deepEqual([plain.w1, plain.w2, plain.damping, plain.kept], [0.6, 0.4, 0.8, {}]);
    const first = await json('--w1', '0.8', '--w2', '0.2');
    assert.deepEqual([first.w1, first.w2, first.kept], [0.8, 0.2, { w1: 0.8, w2: 0.2 }]);
    // Without weights: the kept ones, not the defaults.
    const again = await json();
    assert.deepEqual([again.w1, again.w2], [0.8, 0.2]);
    for (const t of again.top) near(t.score, 0.8 * t.relevance + 0.2 * (t.pageRank ?? 0), t.url);
    // One changed, the others kept.
    const damped = await json('--damping', '0.5', '--w2', '0.1');
    assert.deepEqual(
      [damped.w1, damped.w2, damped.damping, damped.kept],
      [0.8, 0.1, 0.5, { w1: 0.8, w2: 0.1, damping: 0.5 }],
    );
    const hits = await json('--algorithm', 'hits');
    assert.deepEqual([hits.algorithm, hits.w1, hits.w2], ['hits', 0.8, 0.1]);
    assert.equal((await json()).algorithm, 'hits');
    const text = await rank('--store', dir);
    assert.match(
      text.out,
      /^Kept settings\s+--algorithm hits --damping 0\.5 --w1 0\.8 --w2 0\.1 \(kept in the store: later ranks and the crawl's ranking at the end of a run use them until changed\)$/m,
    );
    await withStore(dir, async (store) => {
      assert.deepEqual(await store.getMeta(META_RANK_SETTINGS), {
        w1: 0.8,
        w2: 0.1,
        damping: 0.5,
        algorithm: 'hits',
      });
    });
    const fresh = await rank('--store', await buildStore(1));
    assert.match(fresh.out, /^Kept settings\s+none \(defaults\)/m);
  });

  it('says so when the iteration did not converge', async () => {
    const dir = await buildStore(2);
    const r = await rank('--store', dir, '--max-iterations', '1');
    assert.match(
      r.out,
      /^Iterations\s+1 \(not converged: raise --max-iterations or --tolerance\)$/m,
    );
  });

  it('checks its flags, naming the flag, before touching the store', async () => {
    const dir = await buildStore(1);
    const table: [string[], RegExp][] = [
      [[], /--store is required/],
      [['--store', dir, 'extra'], /unexpected argument "extra"/],
      [['--store', dir, '--frobnicate'], /frobnicate/],
      [['--store', dir, '--algorithm', 'salsa'], /--algorithm must be one of pagerank, hits/],
      [['--store', dir, '--damping', '1.5'], /--damping must be a number in \(0, 1\), got 1\.5/],
      [['--store', dir, '--damping', 'high'], /--damping must be a number, got "high"/],
      [['--store', dir, '--tolerance', '0'], /--tolerance must be a finite number > 0/],
      [['--store', dir, '--max-iterations', '0'], /--max-iterations must be a whole number ≥ 1/],
      [['--store', dir, '--max-iterations', '2.5'], /--max-iterations expects a non-negative/],
      [['--store', dir, '--w1=-1'], /--w1 must be a finite number ≥ 0, got -1/],
      [['--store', dir, '--w2', 'NaN'], /--w2 must be a number, got "NaN"/],
      [['--store', dir, '--top', 'all'], /--top expects a non-negative integer, got "all"/],
    ];
    for (const [argv, re] of table) {
      await assert.rejects(rankCommand(argv, { out: () => {}, err: () => {} }), (e: Error) => {
        assert.equal((e as { code?: string }).code, 'FC_ERR_CLI_USAGE', `${argv}: ${e.message}`);
        assert.match(e.message, /^focuscrawl rank: /);
        assert.match(e.message, re);
        return true;
      });
    }
    await withStore(dir, async (store) => {
      assert.equal(await store.getMeta('ranking'), undefined);
    });
    const help = await rank('--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: focuscrawl rank --store DIR/);
  });

  it('a missing store is an error naming the path', async () => {
    const missing = join(tempDir('rank-cli'), 'nope');
    await assert.rejects(rankCommand(['--store', missing], { out: () => {}, err: () => {} }), {
      code: 'FC_ERR_STORE',
      message: new RegExp(missing.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')),
    });
  });
});
