/**
 * The store conformance suite, extracted fields (`ExtractedFields`): written with a
 * complete page (under the final URL of a redirect), ignored for a discarded one,
 * replaced whole by `replaceFields`, streamed in discovery order then by key,
 * counted by `fieldStats`, refused when invalid naming the page, kept over a reopen.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { StoreError } from '../errors/index.js';
import {
  addAndClaim,
  collect,
  isInvalid,
  page,
  type StoreFactory,
  storeTest,
  url,
  withStore,
} from './conformance-kit.js';
import { A, claimA, F, hop } from './conformance-redirects.js';
import type { FieldValue } from './field-types.js';

const fv = (ruleSet: string, field: string, value: string | null, position = 0): FieldValue => ({
  ruleSet,
  field,
  position,
  value,
});

/** A news page's fields, given out of order. */
const NEWS: FieldValue[] = [
  fv('news', 'title', 'Grid load peaks'),
  fv('news', 'tags', 'grid', 1),
  fv('meta', 'lang', 'en'),
  fv('news', 'tags', 'power', 0),
  fv('news', 'author', null),
];

export function fieldsConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('complete writes the fields; fields() lists them by page in discovery order, then rule set, field, position', async ({
    store,
  }) => {
    await addAndClaim(store, [url(1), url(2), url(3)]);
    // url(2) completes first, but url(1) was discovered first.
    await store.complete(url(2), page({ fields: [fv('news', 'title', 'Two')] }));
    await store.complete(url(1), page({ fields: NEWS }));
    await store.complete(url(3), page({ fields: [] }));
    assert.deepEqual(await collect(store.fields()), [
      { url: url(1), ruleSet: 'meta', field: 'lang', position: 0, value: 'en' },
      { url: url(1), ruleSet: 'news', field: 'author', position: 0, value: null },
      { url: url(1), ruleSet: 'news', field: 'tags', position: 0, value: 'power' },
      { url: url(1), ruleSet: 'news', field: 'tags', position: 1, value: 'grid' },
      { url: url(1), ruleSet: 'news', field: 'title', position: 0, value: 'Grid load peaks' },
      { url: url(2), ruleSet: 'news', field: 'title', position: 0, value: 'Two' },
    ]);
    assert.deepEqual(
      (await collect(store.fields({ url: url(2) }))).map((r) => [r.url, r.value]),
      [[url(2), 'Two']],
    );
    assert.deepEqual(await collect(store.fields({ url: url(3) })), []);
    assert.deepEqual(await collect(store.fields({ url: url('unknown') })), []);
    // Names compare by code point: a character above U+FFFF after U+FFFD.
    await addAndClaim(store, [url(4)]);
    await store.complete(
      url(4),
      page({ fields: [fv('r', '😀', 'a'), fv('r', '\uFFFD', 'b'), fv('r', 'z', 'c')] }),
    );
    assert.deepEqual(
      (await collect(store.fields({ url: url(4) }))).map((r) => r.field),
      ['z', '\uFFFD', '😀'],
    );
  });

  test('fields refuses bad options', async ({ store }) => {
    assert.throws(() => store.fields({ url: 'ftp://x' }), isInvalid(/fields options\.url/));
    assert.throws(
      () => store.fields({ page: 1 } as unknown as { url?: string }),
      isInvalid(/unknown option "page"/),
    );
  });

  test('replaceFields replaces a page’s fields of every rule set, others kept; one transaction', async ({
    store,
  }) => {
    await addAndClaim(store, [url(1), url(2), url(3)]);
    await store.complete(url(1), page({ fields: NEWS }));
    await store.complete(url(2), page({ fields: [fv('news', 'title', 'Two')] }));
    await store.discard(url(3), page());
    const n = await store.replaceFields([
      { url: url(1), fields: [fv('forum', 'post', 'first')] },
      { url: url(3), fields: [fv('news', 'title', 'Three')] },
      { url: url(1), fields: [fv('forum', 'post', 'last'), fv('forum', 'post', 'x', 1)] },
    ]);
    assert.equal(n, 2, 'a URL listed twice counts once');
    assert.deepEqual(
      (await collect(store.fields())).map((r) => [r.url, r.ruleSet, r.field, r.position, r.value]),
      [
        [url(1), 'forum', 'post', 0, 'last'],
        [url(1), 'forum', 'post', 1, 'x'],
        [url(2), 'news', 'title', 0, 'Two'],
        [url(3), 'news', 'title', 0, 'Three'],
      ],
    );
    assert.equal(await store.replaceFields([{ url: url(2), fields: [] }]), 1);
    assert.deepEqual(await collect(store.fields({ url: url(2) })), []);
    assert.equal(await store.replaceFields([]), 0);
  });

  test('replaceFields with an unknown URL or a URL without a page throws naming it and writes nothing', async ({
    store,
  }) => {
    await addAndClaim(store, [url(1)]);
    await store.complete(url(1), page({ fields: [fv('news', 'title', 'One')] }));
    await store.addUrls([{ url: url(2), depth: 1, priority: 0.1 }]);
    const before = await collect(store.fields());
    await assert.rejects(
      store.replaceFields([
        { url: url(1), fields: [fv('news', 'title', 'changed')] },
        { url: url('nowhere'), fields: [] },
      ]),
      isInvalid(/replaceFields\[1\]\.url: http:\/\/h0\.test\/p\/nowhere is not a known URL/),
    );
    await assert.rejects(
      store.replaceFields([
        { url: url(1), fields: [fv('news', 'title', 'changed')] },
        { url: url(2), fields: [fv('news', 'title', 'waiting')] },
      ]),
      isInvalid(/replaceFields\[1\]\.url: http:\/\/h2\.test\/p\/2 is a URL without a stored page/),
    );
    await assert.rejects(
      store.replaceFields([{ url: url(1), fields: [fv('news', '', 'x')] }]),
      isInvalid(/replaceFields\[0\]\.fields\[0\]\.field: .*page http:\/\/h1\.test\/p\/1/),
    );
    assert.deepEqual(await collect(store.fields()), before);
  });

  test('a discarded page’s fields are ignored', async ({ store }) => {
    await addAndClaim(store, [url(1)]);
    await store.discard(url(1), page({ fields: NEWS }));
    assert.deepEqual(await collect(store.fields()), []);
    assert.deepEqual(await store.fieldStats(), []);
  });

  test('the fields of a page reached through a redirect are the final URL’s', async ({ store }) => {
    await claimA(store);
    await store.complete(A, page({ redirects: [hop(A, F)], fields: [fv('news', 'title', 'F')] }));
    assert.deepEqual(await collect(store.fields()), [
      { url: F, ruleSet: 'news', field: 'title', position: 0, value: 'F' },
    ]);
    assert.deepEqual(await collect(store.fields({ url: A })), []);
  });

  test('fieldStats: pages per rule set, and per field the pages with a value (null: matched, empty)', async ({
    store,
  }) => {
    assert.deepEqual(await store.fieldStats(), []);
    await addAndClaim(store, [url(1), url(2), url(3)]);
    await store.complete(url(1), page({ fields: NEWS }));
    await store.complete(
      url(2),
      page({
        fields: [
          fv('news', 'title', 'Two'),
          fv('news', 'tags', null),
          fv('news', 'author', null),
          fv('forum', 'post', null),
        ],
      }),
    );
    await store.complete(url(3), page({ fields: [fv('news', 'title', null)] }));
    assert.deepEqual(await store.fieldStats(), [
      { ruleSet: 'forum', pages: 1, fields: [{ field: 'post', filled: 0 }] },
      { ruleSet: 'meta', pages: 1, fields: [{ field: 'lang', filled: 1 }] },
      {
        ruleSet: 'news',
        pages: 3,
        fields: [
          { field: 'author', filled: 0 },
          { field: 'tags', filled: 1 },
          { field: 'title', filled: 2 },
        ],
      },
    ]);
  });

  test('invalid fields are refused naming the URL and the entry, and nothing is recorded', async ({
    store,
  }) => {
    await addAndClaim(store, [url(1)]);
    const bad: [FieldValue[], RegExp][] = [
      [[fv('news', '', 'x')], /fields\[0\]\.field: expected a non-empty string/],
      [[fv('', 'title', 'x')], /fields\[0\]\.ruleSet: expected a non-empty string/],
      [[fv('news', 'tags', 'x', -1)], /fields\[0\]\.position: expected an integer ≥ 0, got -1/],
      [[fv('news', 'tags', 'x', 0.5)], /fields\[0\]\.position: expected an integer ≥ 0/],
      [
        [fv('news', 'tags', 'a', 0), fv('news', 'title', 'b'), fv('news', 'tags', 'c', 0)],
        /fields\[2\]: position 0 is given twice \(first at \[0\]\) \(field "tags" of rule set "news"/,
      ],
      [[{ ...fv('news', 'title', null), value: 3 as unknown as string }], /fields\[0\]\.value/],
    ];
    for (const [fields, re] of bad) {
      await assert.rejects(store.complete(url(1), page({ fields })), isInvalid(re));
      await assert.rejects(
        store.commit([{ url: url(1), state: 'complete', result: page({ fields }) }]),
        isInvalid(/page http:\/\/h1\.test\/p\/1/),
      );
    }
    await assert.rejects(
      store.complete(url(1), page({ fields: 'x' as unknown as FieldValue[] })),
      isInvalid(/result\.fields: expected an array/),
    );
    // Checked for a discarded page too, as its text is.
    await assert.rejects(
      store.discard(url(1), page({ fields: [fv('news', 'tags', 'x', -1)] })),
      isInvalid(/position/),
    );
    assert.equal((await store.counts()).processing, 1);
    assert.deepEqual(await collect(store.fields()), []);
  });

  test('fields stream past one read of rows', async ({ store }) => {
    const urls = [url(1), url(2), url(3)];
    const sizes = [450, 1100, 450];
    const values = (u: string, n: number) => Array.from({ length: n }, (_, i) => `${u} ${i}`);
    await addAndClaim(store, urls);
    for (const [k, u] of urls.entries()) {
      const fields = values(u, sizes[k] ?? 0).map((v, i) => fv('list', 'item', v, i));
      await store.complete(u, page({ fields }));
    }
    assert.deepEqual(
      (await collect(store.fields())).map((r) => r.value),
      urls.flatMap((u, k) => values(u, sizes[k] ?? 0)),
    );
    assert.deepEqual(
      (await collect(store.fields({ url: url(2) }))).map((r) => r.value),
      values(url(2), 1100),
    );
    const some = [];
    for await (const r of store.fields()) if (some.push(r) === 3) break;
    assert.equal(some.length, 3);
    assert.deepEqual(await store.fieldStats(), [
      { ruleSet: 'list', pages: 3, fields: [{ field: 'item', filled: 3 }] },
    ]);
  });

  test('a closed store refuses the fields calls with StoreError', async ({ store }) => {
    await store.close();
    await assert.rejects(store.replaceFields([]), StoreError);
    await assert.rejects(store.fieldStats(), StoreError);
    await assert.rejects(collect(store.fields()), StoreError);
  });

  it('fields survive closing and reopening', async (t) => {
    await withStore(factory, async (h) => {
      if (h.reopen === undefined) return t.skip('the store does not persist');
      await addAndClaim(h.store, [url(1), url(2)]);
      await h.store.complete(url(1), page({ fields: NEWS }));
      await h.store.complete(url(2), page({ fields: [fv('news', 'title', 'Two')] }));
      await h.store.replaceFields([{ url: url(2), fields: [fv('news', 'title', 'Again')] }]);
      const before = [await collect(h.store.fields()), await h.store.fieldStats()];
      await h.store.close();
      h.store = await h.reopen();
      assert.deepEqual([await collect(h.store.fields()), await h.store.fieldStats()], before);
      assert.equal(before[0]?.length, 6);
    });
  });
}
