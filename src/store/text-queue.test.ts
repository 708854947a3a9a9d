// Deferred indexing on the store's thread (text-queue.ts): a kept page's text reaches
// the index without a call asking for it (the thread indexes while idle); every call
// that reads the index sees every text committed before it; a commit that fails puts
// none of its texts in the index; closing indexes what still waits.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { addAndClaim, page, url } from './conformance-kit.js';
import { openStore } from './sqlite-open.js';
import { TextQueue } from './text-queue.js';
import { openThreadedStore } from './threaded.js';
import type { Outcome } from './types.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-text-queue-'));
after(() => rmSync(root, { recursive: true, force: true }));

const kept = (name: string, text: string): Outcome => ({
  url: url(name),
  state: 'complete',
  result: page({ title: `Page ${name}`, text, relevance: 0.5 }),
});

describe('TextQueue', () => {
  it('queues what a transaction staged once it commits, nothing of one rolled back', () => {
    const q = new TextQueue(10);
    q.stage(1, 'a', 'bb', true);
    q.rollback();
    assert.equal(q.size, 0);
    q.stage(2, 'a', 'bb', true);
    q.stage(3, 'c', 'dddd', false);
    assert.equal(q.size, 0, 'nothing before the commit');
    q.commit();
    assert.equal(q.size, 2);
    assert.equal(q.full, false);
    q.stage(4, 'e', 'ffff', true);
    q.commit();
    assert.equal(q.full, true, '13 characters queued, 10 at most');
    assert.deepEqual(q.take(2), [
      [2, 'a', 'bb', true],
      [3, 'c', 'dddd', false],
    ]);
    assert.equal(q.full, false);
    assert.deepEqual(q.take(5), [[4, 'e', 'ffff', true]]);
    assert.equal(q.size, 0);
  });
});

describe('deferred indexing on the store thread', () => {
  it('indexes while idle, before every read of the index, and none of a failed commit', async () => {
    const dir = join(root, 'one');
    const store = await openThreadedStore(dir, { create: true });
    try {
      const names = Array.from({ length: 200 }, (_, i) => `p${i}`);
      await addAndClaim(store, names.map(url));
      await store.commit(names.slice(0, 100).map((n) => kept(n, `grid dispatch ${n}`)));
      // A read of the index sees every text committed before it.
      assert.deepEqual(await store.textCoverage(), { kept: 100, indexed: 100 });
      await store.commit(names.slice(100, 199).map((n) => kept(n, `power line ${n}`)));
      // No call: the thread indexes them by itself (a second connection reads the file).
      let indexed = 0;
      for (let i = 0; i < 100 && indexed < 199; i++) {
        await sleep(20);
        const reader = await openStore(dir, { readonly: true });
        indexed = (await reader.textCoverage()).indexed;
        await reader.close();
      }
      assert.equal(indexed, 199);
      // A commit that fails (its second outcome is of a URL not being fetched) indexes
      // nothing of it.
      await assert.rejects(
        store.commit([kept('p199', 'telescope mirror'), kept('p0', 'telescope mirror')]),
        /cannot complete/,
      );
      assert.deepEqual(await store.search({ query: 'telescope' }), []);
      await store.commit([kept('p199', 'galaxy survey')]);
      assert.deepEqual(
        (await store.search({ query: 'galaxy' })).map((h) => h.url),
        [url('p199')],
      );
    } finally {
      await store.close();
    }
  });

  it('indexes what still waits when the store closes', async () => {
    const dir = join(root, 'two');
    const store = await openThreadedStore(dir, { create: true });
    const names = Array.from({ length: 300 }, (_, i) => `q${i}`);
    await addAndClaim(store, names.map(url));
    await store.commit(names.map((n) => kept(n, `comet tail ${n}`)));
    await store.close();
    const reader = await openStore(dir, { readonly: true });
    try {
      assert.deepEqual(await reader.textCoverage(), { kept: 300, indexed: 300 });
      assert.equal((await reader.search({ query: 'comet', limit: 500 })).length, 300);
    } finally {
      await reader.close();
    }
  });
});
