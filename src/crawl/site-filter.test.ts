// The crawl's link filter from a site model: valid patterns followed, invalid ones and
// unknown URLs skipped and counted, other hosts left to the scope, the structure-change
// warning once past its limit.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handModel } from '../sitemodel/testing.js';
import { SiteFilter } from './site-filter.js';

const H = 'https://bbs.example.test';

describe('SiteFilter', () => {
  it('follows valid patterns, skips invalid ones by pattern and unknown URLs, leaves other hosts alone', () => {
    const warnings: string[] = [];
    const f = new SiteFilter(handModel(), (m) => warnings.push(m), 3);
    const table: [string, boolean][] = [
      [`${H}/t/12`, true],
      [`${H}/list/2`, true],
      [`${H}/print/12`, false],
      [`${H}/print/13`, false],
      [`${H}/print/13`, false], // counted once
      [`${H}/form?item=4`, false],
      [`${H}/t/12?sort=new`, false],
      [`${H}/new/scheme/1`, false],
      [`https://elsewhere.test/print/12`, true],
      ['not a url', false],
    ];
    for (const [url, follows] of table) assert.equal(f.allows(url), follows, url);
    assert.deepEqual(f.stats.refused, {
      '/print/{n}': 2,
      '/form?item={n}': 1,
      '/t/{n}?sort={w}': 1,
    });
    assert.equal(f.stats.unknown, 1);
    assert.equal(f.stats.valid, 2);
    assert.deepEqual(warnings, []);
  });

  it('warns once that the structure changed when unknown URLs pass the limit', () => {
    const warnings: string[] = [];
    const f = new SiteFilter(handModel(), (m) => warnings.push(m), 3);
    for (let i = 0; i < 10; i++) f.allows(`${H}/v2/item-${i}.html`);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]!,
      /site model: 3 links match none of its patterns .*structure may have changed/,
    );
    assert.equal(f.stats.unknown, 10);
    assert.equal(f.stats.unknownExamples.length, 5);
  });

  it('with a relearner, holds unknown URLs while it learns, then queues those the new model takes', async () => {
    const warnings: string[] = [];
    const asked: string[][] = [];
    const queued: string[][] = [];
    // The new model: the old one with the new scheme's item pages valid.
    const next = handModel();
    next.clusters[0]!.patterns.push({ pattern: '/v2/item-{n}.html', pages: 5, role: 'content' });
    let release: () => void = () => {};
    const learnt = new Promise<void>((r) => {
      release = r;
    });
    const f = new SiteFilter(handModel(), (m) => warnings.push(m), 3, {
      learn: async (examples, _signal) => {
        asked.push([...examples]);
        await learnt;
        return next;
      },
      queue: async (urls) => {
        queued.push([...urls]);
      },
    });
    for (let i = 0; i < 3; i++) assert.equal(f.allows(`${H}/v2/item-${i}.html`), false);
    assert.match(warnings[0]!, /learning the model again from a fresh sample/);
    assert.ok(f.pending !== null);
    // Meanwhile: held, not followed; a URL of the old scheme is judged as before.
    assert.equal(f.allows(`${H}/v2/item-3.html`), false);
    assert.equal(f.allows(`${H}/v2/other`), false);
    assert.equal(f.allows(`${H}/t/5`), true);
    release();
    await f.pending;
    // The URL that passed the limit, then the first unknown ones.
    assert.deepEqual(asked, [
      [`${H}/v2/item-2.html`, `${H}/v2/item-0.html`, `${H}/v2/item-1.html`],
    ]);
    // Held: item-2 (the one that passed the limit), item-3, other; the new model takes two.
    assert.deepEqual(queued, [[`${H}/v2/item-2.html`, `${H}/v2/item-3.html`]]);
    assert.equal(f.stats.relearns, 1);
    assert.equal(f.allows(`${H}/v2/item-9.html`), true);
    // The count starts again: a later change is noticed too.
    for (let i = 0; i < 3; i++) f.allows(`${H}/v3/x${i}`);
    assert.equal(warnings.length, 2);
  });

  it('keeps the old model when learning again fails, and says so', async () => {
    const warnings: string[] = [];
    const f = new SiteFilter(handModel(), (m) => warnings.push(m), 2, {
      learn: async () => {
        throw new Error('too few pages');
      },
      queue: async () => {},
    });
    f.allows(`${H}/v2/a-1`);
    f.allows(`${H}/v2/a-2`);
    await f.pending;
    assert.match(
      warnings.at(-1)!,
      /learning it again failed, the old one stays: Error: too few pages/,
    );
    assert.equal(f.allows(`${H}/t/1`), true);
    assert.equal(f.stats.relearns, undefined);
  });

  it('stops a relearn under way when the crawl ends (close), keeping the old model', async () => {
    const warnings: string[] = [];
    let seen: AbortSignal | undefined;
    const queued: string[] = [];
    const f = new SiteFilter(handModel(), (m) => warnings.push(m), 2, {
      learn: (_examples, signal) => {
        seen = signal;
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('sample stopped')));
        });
      },
      queue: async (urls) => {
        queued.push(...urls);
      },
    });
    f.allows(`${H}/v2/a-1`);
    f.allows(`${H}/v2/a-2`);
    assert.ok(f.pending !== null);
    await f.close();
    assert.equal(seen?.aborted, true);
    assert.deepEqual(queued, []);
    assert.equal(f.pending, null);
    assert.match(
      warnings.at(-1)!,
      /learning it again failed, the old one stays: Error: sample stopped/,
    );
  });

  it('refuses a finest pattern whose kept pages keep turning out duplicates (5, and 90% of them)', () => {
    const cases: [string, boolean[], boolean][] = [
      ['4 duplicates: too few', [true, true, true, true], true],
      ['5 duplicates of 6 pages: 83% < 90%', [false, true, true, true, true, true], true],
      ['5 duplicates of 5 pages', [true, true, true, true, true], false],
      ['9 duplicates of 10 pages', [false, ...Array<boolean>(9).fill(true)], false],
    ];
    for (const [name, seen, follows] of cases) {
      const warnings: string[] = [];
      const f = new SiteFilter(handModel(), (m) => warnings.push(m), 50);
      for (const [i, dup] of seen.entries()) f.observe(`${H}/t/${i + 1}?page=0`, dup);
      // Another spelling of the same pattern's pages is judged apart (its finest pattern differs).
      assert.equal(f.allows(`${H}/t/99?page=0`), follows, name);
      assert.equal(f.allows(`${H}/t/99`), true, name);
      assert.equal(warnings.length, follows ? 0 : 1, name);
      if (!follows) {
        assert.deepEqual(f.stats.learntDuplicates, ['/t/{n}?page=0'], name);
        assert.equal(f.stats.refused['/t/{n}?page=0 (duplicates found while crawling)'], 1, name);
      }
    }
  });

  // Regression: URLs of a pattern queued before it was found to give duplicates were
  // still fetched (about 100 requests on the large phpBB-like forums).
  it('refuses URLs queued before their pattern was refused, naming the pattern', () => {
    const f = new SiteFilter(handModel(), () => {}, 50);
    assert.equal(f.allows(`${H}/t/7?page=0`), true);
    assert.equal(f.refusesQueued(`${H}/t/7?page=0`), null);
    for (let i = 1; i <= 5; i++) f.observe(`${H}/t/${i}?page=0`, true);
    const key = '/t/{n}?page=0 (duplicates found while crawling)';
    assert.equal(f.refusesQueued(`${H}/t/7?page=0`), key);
    assert.equal(f.stats.refused[key], 1);
    // Other spellings, other hosts: still fetched.
    assert.equal(f.refusesQueued(`${H}/t/7`), null);
    assert.equal(f.refusesQueued('https://elsewhere.test/t/7?page=0'), null);
  });
});
