/**
 * The store conformance suite, the part about revisits (`Revisits`): scheduling
 * kept pages, claiming the due ones, recording what each revisit found, claims
 * under leases, and (for persistent stores) revisit records surviving a reopen.
 */
import assert from 'node:assert/strict';
import {
  addAndClaim,
  collect,
  isInvalid,
  isState,
  page,
  type StoreFactory,
  storeTest,
  url,
} from './conformance-kit.js';
import { thisProcess } from './lease.js';
import type { VisitOutcome } from './revisit-types.js';
import type { Store } from './types.js';

const HOUR = 3_600_000;
const later = () => Date.now() + HOUR;

/** Adds, claims and completes `n` pages fetched at 1,000 ms; returns their URLs. */
async function kept(store: Store, n: number, prefix = 'rv'): Promise<string[]> {
  const urls = Array.from({ length: n }, (_, i) => url(`${prefix}-${i}`));
  await addAndClaim(store, urls);
  for (const u of urls)
    await store.complete(
      u,
      page({ contentHash: `h-${u}`, textHash: textHash(u), body: Buffer.from(`old ${u}`) }),
    );
  return urls;
}

/** A text hash (16 hex digits) of its own for each URL. */
const textHash = (u: string): string =>
  [...u]
    .reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 0xffffffff, 7)
    .toString(16)
    .padStart(16, '0');

const visit = (u: string, o: Partial<VisitOutcome> = {}): VisitOutcome => ({
  url: u,
  at: 5_000,
  status: 200,
  change: 'unchanged',
  dueAt: 9_000,
  ...o,
});

export function revisitConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('scheduleRevisits sets due times of complete pages only; claimDue takes the due ones, earliest first', async ({
    store,
  }) => {
    const [a, b, c] = await kept(store, 3);
    await store.addUrls([{ url: url('rv-waiting'), depth: 1, priority: 0.5 }]);
    const n = await store.scheduleRevisits([
      { url: a as string, dueAt: 3_000, rate: 0.5 },
      { url: b as string, dueAt: 2_000 },
      { url: c as string, dueAt: 8_000 },
      { url: url('rv-waiting'), dueAt: 1_000 },
      { url: url('rv-unknown'), dueAt: 1_000 },
    ]);
    assert.equal(n, 3);
    assert.deepEqual(await store.claimDue(10, { now: 1_500 }), []);
    const due = await store.claimDue(10, { now: 5_000 });
    assert.deepEqual(
      due.map((d) => [d.url, d.dueAt, d.visits, d.lastVisitAt, d.rate, d.contentHash, d.textHash]),
      [
        [b, 2_000, 0, 1_000, null, `h-${b}`, textHash(b as string)],
        [a, 3_000, 0, 1_000, 0.5, `h-${a}`, textHash(a as string)],
      ],
    );
    // Claimed pages are not handed out twice; the pages stay complete meanwhile.
    assert.deepEqual(await store.claimDue(10, { now: 5_000 }), []);
    assert.equal((await store.counts()).complete, 3);
    const t = await store.revisitTotals(5_000);
    assert.deepEqual([t.tracked, t.scheduled, t.due, t.nextDueAt], [3, 3, 2, 2_000]);
  });

  test('recordVisits records unchanged, changed (the new copy replaces the old), gone and failed visits', async ({
    store,
  }) => {
    const urls = await kept(store, 4);
    const [a, b, c, d] = urls as [string, string, string, string];
    await store.scheduleRevisits(urls.map((u) => ({ url: u, dueAt: 2_000 })));
    assert.equal((await store.claimDue(4, { now: 2_000 })).length, 4);
    await store.recordVisits([
      visit(a, {
        status: 304,
        etag: '"v1"',
        lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT',
        rate: 0.1,
      }),
      visit(b, {
        change: 'changed',
        contentHash: 'h-new',
        textHash: 'feedfacefeedface',
        lastModifiedMs: 4_000,
        rate: 2,
        dueAt: 6_000,
        page: {
          status: 200,
          contentType: 'text/html',
          bytes: 7,
          title: 'New',
          relevance: 0.9,
          body: Buffer.from('new'),
        },
      }),
      visit(c, { status: 410, change: 'gone' }),
      visit(d, { status: null, change: 'failed', error: 'timeout: no answer', dueAt: 7_000 }),
    ]);
    const rec = new Map((await collect(store.revisits())).map((r) => [r.url, r]));
    assert.deepEqual(
      [a, b, c, d].map((u) => {
        const r = rec.get(u);
        return [r?.visits, r?.changes, r?.lastVisitAt, r?.dueAt, r?.goneAt, r?.claimed];
      }),
      [
        [1, 0, 5_000, 9_000, null, false],
        [1, 1, 5_000, 6_000, null, false],
        [1, 0, 5_000, null, 5_000, false],
        [0, 0, 1_000, 7_000, null, false],
      ],
    );
    assert.deepEqual([rec.get(a)?.etag, rec.get(a)?.rate], ['"v1"', 0.1]);
    assert.equal(rec.get(a)?.lastModified, 'Mon, 01 Jan 2024 00:00:00 GMT');
    assert.equal(rec.get(b)?.lastChangeAt, 5_000);
    const pages = new Map((await collect(store.pages())).map((p) => [p.url, p]));
    assert.deepEqual(
      [
        pages.get(b)?.title,
        pages.get(b)?.relevance,
        pages.get(b)?.contentHash,
        pages.get(b)?.fetchedAt,
      ],
      ['New', 0.9, 'h-new', 5_000],
    );
    assert.equal(String(await store.readBody(b)), 'new');
    assert.equal(String(await store.readBody(a)), `old ${a}`);
    assert.equal(pages.get(a)?.fetchedAt, 1_000);
    // Every page is still complete; the history of visits lists them in order.
    assert.equal((await store.counts()).complete, 4);
    const v = await collect(store.visits());
    assert.deepEqual(
      v.map((x) => [x.url, x.status, x.change]),
      [
        [a, 304, 'unchanged'],
        [b, 200, 'changed'],
        [c, 410, 'gone'],
        [d, null, 'failed'],
      ],
    );
    assert.equal(v[3]?.error, 'timeout: no answer');
    assert.equal(v[1]?.lastModifiedMs, 4_000);
    assert.deepEqual(
      (await collect(store.visits(b))).map((x) => x.textHash),
      ['feedfacefeedface'],
    );
    const t = await store.revisitTotals(8_000);
    assert.deepEqual(t.visits, { unchanged: 1, changed: 1, gone: 1, failed: 1 });
    assert.deepEqual([t.scheduled, t.due, t.gone, t.nextDueAt], [3, 2, 1, 6_000]);
  });

  test("a changed visit with keepVersion keeps that version's body beside the newest", async ({
    store,
  }) => {
    const [a] = (await kept(store, 1)) as [string];
    await store.scheduleRevisits([{ url: a, dueAt: 2_000 }]);
    const page = (body: string, keepVersion: boolean) => ({
      status: 200,
      contentType: 'text/html',
      bytes: body.length,
      title: null,
      relevance: 0.5,
      body: Buffer.from(body),
      keepVersion,
    });
    await store.claimDue(1, { now: 2_000 });
    await store.recordVisits([
      visit(a, { change: 'changed', at: 3_000, dueAt: 4_000, page: page('v1', true) }),
    ]);
    await store.claimDue(1, { now: 4_000 });
    await store.recordVisits([
      visit(a, { change: 'changed', at: 5_000, dueAt: 6_000, page: page('v2', false) }),
    ]);
    assert.equal(String(await store.readBody(a)), 'v2');
    assert.equal(String(await store.readVersion(a, 3_000)), 'v1');
    assert.equal(await store.readVersion(a, 5_000), null);
    const v = await collect(store.visits(a));
    assert.deepEqual(
      v.map((x) => x.bodyFile !== null),
      [true, false],
    );
  });

  test('a page is due again after its visit; claims are given back by releaseDue', async ({
    store,
  }) => {
    const [a] = (await kept(store, 1)) as [string];
    await store.scheduleRevisits([{ url: a, dueAt: 2_000 }]);
    await store.claimDue(1, { now: 2_000 });
    assert.equal(await store.releaseDue([a]), 1);
    const [again] = await store.claimDue(1, { now: 2_000 });
    assert.equal(again?.url, a);
    await store.recordVisits([visit(a, { dueAt: 9_000 })]);
    assert.deepEqual(await store.claimDue(1, { now: 8_999 }), []);
    const [third] = await store.claimDue(1, { now: 9_000 });
    assert.deepEqual([third?.visits, third?.lastVisitAt], [1, 5_000]);
  });

  test('recordVisits of a page not claimed throws and records nothing; bad input names the field', async ({
    store,
  }) => {
    const [a, b] = (await kept(store, 2)) as [string, string];
    await store.scheduleRevisits([
      { url: a, dueAt: 2_000 },
      { url: b, dueAt: 99_000 },
    ]);
    await store.claimDue(5, { now: 2_000 });
    await assert.rejects(
      store.recordVisits([visit(a), visit(b)]),
      isState(/not claimed for a revisit/),
    );
    assert.deepEqual(await collect(store.visits()), []);
    await assert.rejects(
      store.recordVisits([visit(a, { change: 'moved' as never })]),
      isInvalid(/recordVisits\[0\]\.change/),
    );
    await assert.rejects(
      store.recordVisits([visit(a, { rate: -1 })]),
      isInvalid(/recordVisits\[0\]\.rate/),
    );
    await assert.rejects(store.recordVisits([visit(a), visit(a)]), isInvalid(/given twice/));
    await assert.rejects(
      store.scheduleRevisits([{ url: a } as never]),
      isInvalid(/scheduleRevisits\[0\]\.dueAt/),
    );
    await assert.rejects(store.claimDue(0), isInvalid(/claimDue\(n\)/));
    await store.recordVisits([visit(a)]);
    assert.equal((await collect(store.visits())).length, 1);
  });

  test("revisit claims follow leases: a lost lease's visits are refused, closeLease and recover give claims back", async ({
    store,
  }) => {
    const urls = await kept(store, 3);
    const [a, b, c] = urls as [string, string, string];
    await store.scheduleRevisits(urls.map((u) => ({ url: u, dueAt: 2_000 })));
    const l1 = await store.openLease(thisProcess(1), later());
    const l2 = await store.openLease(thisProcess(2), later());
    assert.deepEqual(
      (await store.claimDue(1, { now: 2_000, lease: l1.id })).map((d) => d.url),
      [a],
    );
    assert.deepEqual(
      (await store.claimDue(1, { now: 2_000, lease: l2.id })).map((d) => d.url),
      [b],
    );
    await store.claimDue(1, { now: 2_000 });
    // A visit under the wrong lease is refused, not thrown; the right one is recorded.
    const r = await store.recordVisits([visit(a), visit(b)], { lease: l1.id });
    assert.deepEqual(r.refused, [b]);
    assert.deepEqual(
      (await collect(store.visits())).map((v) => v.url),
      [a],
    );
    assert.equal(await store.closeLease(l2.id), 1);
    // c was claimed without a lease: recover gives it back.
    assert.equal(await store.recover(), 1);
    assert.deepEqual(
      (await store.claimDue(5, { now: 2_000 })).map((d) => d.url).sort(),
      [b, c].sort(),
    );
  });

  test("a page's first-fetch validators are kept; claimDue falls back to them until a revisit records its own", async (h) => {
    const [a, b, c] = [url('fv-a'), url('fv-b'), url('fv-c')];
    const lm = 'Mon, 01 Jan 2024 00:00:00 GMT';
    await addAndClaim(h.store, [a, b, c]);
    await h.store.complete(
      a,
      page({ contentHash: 'h-a', etag: '"a1"', lastModified: lm, modifiedAt: 1_704_067_200_000 }),
    );
    await h.store.complete(b, page({ contentHash: 'h-b' }));
    // A discarded page keeps them as well; a date that did not parse has no modifiedAt.
    await h.store.discard(c, page({ relevance: 0.1, etag: 'W/"c1"', lastModified: 'yesterday' }));
    const fields = async () =>
      (await collect(h.store.pages())).map((p) => [p.url, p.etag, p.lastModified, p.modifiedAt]);
    const want = [
      [a, '"a1"', lm, 1_704_067_200_000],
      [b, null, null, null],
      [c, 'W/"c1"', 'yesterday', null],
    ];
    assert.deepEqual(await fields(), want);

    await h.store.scheduleRevisits([
      { url: a, dueAt: 2_000 },
      { url: b, dueAt: 2_000 },
    ]);
    assert.deepEqual(
      (await h.store.claimDue(5, { now: 2_000 })).map((d) => [d.url, d.etag, d.lastModified]),
      [
        [a, '"a1"', lm],
        [b, null, null],
      ],
    );
    // The revisit record itself holds none until a revisit brings some.
    assert.deepEqual(
      (await collect(h.store.revisits())).map((r) => [r.url, r.etag, r.lastModified]),
      [
        [a, null, null],
        [b, null, null],
      ],
    );
    // A revisit's new ETag wins; the Last-Modified it did not carry stays the first fetch's.
    await h.store.recordVisits([
      visit(a, { status: 304, etag: '"a2"', dueAt: 6_000 }),
      visit(b, { status: 304, lastModified: lm, dueAt: 6_000 }),
    ]);
    assert.deepEqual(
      (await h.store.claimDue(5, { now: 6_000 })).map((d) => [d.url, d.etag, d.lastModified]),
      [
        [a, '"a2"', lm],
        [b, null, lm],
      ],
    );
    // A changed copy replaces the page's fetch fields, not its first fetch's validators.
    await h.store.recordVisits([
      visit(a, {
        at: 7_000,
        change: 'changed',
        etag: '"a3"',
        lastModified: 'Tue, 02 Jan 2024 00:00:00 GMT',
        contentHash: 'h-a3',
        dueAt: 9_000,
        page: { status: 200, contentType: 'text/html', bytes: 3, title: 'A3', relevance: 0.7 },
      }),
    ]);
    assert.deepEqual(await fields(), want);
    assert.deepEqual(
      (await h.store.claimDue(5, { now: 9_000 })).map((d) => [d.url, d.etag, d.lastModified]),
      [[a, '"a3"', 'Tue, 02 Jan 2024 00:00:00 GMT']],
    );
    if (h.reopen === undefined) return;
    await h.store.close();
    h.store = await h.reopen();
    assert.deepEqual(await fields(), want);
  });

  test('bad first-fetch validators name the field and record nothing', async ({ store }) => {
    const [a] = [url('fv-bad')];
    await addAndClaim(store, [a]);
    await assert.rejects(
      store.complete(a, page({ etag: 7 as never })),
      isInvalid(/commit\[0\]\.result\.etag/),
    );
    await assert.rejects(
      store.complete(a, page({ lastModified: 0 as never })),
      isInvalid(/commit\[0\]\.result\.lastModified/),
    );
    await assert.rejects(
      store.complete(a, page({ modifiedAt: Number.NaN })),
      isInvalid(/commit\[0\]\.result\.modifiedAt/),
    );
    await assert.rejects(
      store.discard(a, page({ modifiedAt: 'Mon, 01 Jan 2024 00:00:00 GMT' as never })),
      isInvalid(/commit\[0\]\.result\.modifiedAt/),
    );
    assert.deepEqual(await collect(store.pages()), []);
    await store.complete(a, page({ etag: null, lastModified: null, modifiedAt: null }));
    assert.deepEqual(
      (await collect(store.pages())).map((p) => [p.etag, p.lastModified, p.modifiedAt]),
      [[null, null, null]],
    );
  });

  test("a visit's new URLs are queued with it: waiting, the visited page their parent unless given, each counted once", async ({
    store,
  }) => {
    const [a, b] = (await kept(store, 2, 'nu')) as [string, string];
    const known = url('nu-known');
    await store.addUrls([{ url: known, depth: 1, priority: 0.2 }]);
    await store.scheduleRevisits([
      { url: a, dueAt: 2_000 },
      { url: b, dueAt: 2_000 },
    ]);
    await store.claimDue(2, { now: 2_000 });
    const before = (await store.stats()).discovered;
    const [x, y, z] = [url('nu-x'), url('nu-y'), url('nu-z')];
    const r = await store.recordVisits([
      visit(a, {
        change: 'changed',
        contentHash: 'h-a2',
        page: { status: 200, contentType: 'text/html', bytes: 3, title: 'A2', relevance: 0.8 },
        newUrls: [
          { url: x, depth: 2, priority: 0.7, anchor: 'X' },
          { url: known, depth: 2, priority: 0.1 },
          { url: y, depth: 3, priority: 0.4, value: 2, parent: b, context: 'near y' },
          { url: a, depth: 2, priority: 0.9 },
        ],
      }),
      // A URL queued by an earlier visit of the batch is known to the later ones.
      visit(b, {
        status: 301,
        change: 'gone',
        newUrls: [
          { url: x, depth: 1, priority: 0.9 },
          { url: z, depth: 1, priority: 0.3, parent: x, discoveredAt: 4_000 },
        ],
      }),
    ]);
    assert.deepEqual(r, { refused: [], added: 3 });
    const waiting = await collect(store.urls('waiting'));
    assert.deepEqual(
      waiting.map((w) => [w.url, w.depth, w.priority, w.value, w.parent, w.anchor, w.context]),
      [
        [known, 1, 0.2, 0, null, null, null],
        // Raised by the later visit, as addUrls raises a waiting URL.
        [x, 2, 0.9, 0, a, 'X', null],
        [y, 3, 0.4, 2, b, null, 'near y'],
        [z, 1, 0.3, 0, x, null, null],
      ],
    );
    assert.equal(waiting.at(-1)?.discoveredAt, 4_000);
    assert.deepEqual(await store.counts(), {
      waiting: 4,
      processing: 0,
      complete: 2,
      discard: 0,
      error: 0,
      redirect: 0,
    });
    assert.equal((await store.stats()).discovered, before + 3);
    assert.deepEqual(
      (await collect(store.visits())).map((v) => [v.url, v.change]),
      [
        [a, 'changed'],
        [b, 'gone'],
      ],
    );
    assert.equal((await store.claim(1))[0]?.url, x);
    // A visit without new URLs adds none.
    await store.scheduleRevisits([{ url: a, dueAt: 2_000 }]);
    await store.claimDue(1, { now: 2_000 });
    assert.deepEqual(await store.recordVisits([visit(a, { newUrls: [] })]), {
      refused: [],
      added: 0,
    });
  });

  test('bad new URLs of a visit name their field; an unknown parent throws and records nothing', async ({
    store,
  }) => {
    const [a, b] = (await kept(store, 2, 'nb')) as [string, string];
    await store.scheduleRevisits([
      { url: a, dueAt: 2_000 },
      { url: b, dueAt: 2_000 },
    ]);
    await store.claimDue(2, { now: 2_000 });
    const fresh = url('nb-new');
    await assert.rejects(
      store.recordVisits([visit(a, { newUrls: 'x' as never })]),
      isInvalid(/recordVisits\[0\]\.newUrls: expected an array/),
    );
    await assert.rejects(
      store.recordVisits([
        visit(a),
        visit(b, { newUrls: [{ url: fresh, depth: 1, priority: 0 }, { url: 'ftp://x' } as never] }),
      ]),
      isInvalid(/recordVisits\[1\]\.newUrls\[1\]\.url/),
    );
    await assert.rejects(
      store.recordVisits([visit(a, { newUrls: [{ url: fresh, depth: -1, priority: 0 }] })]),
      isInvalid(/recordVisits\[0\]\.newUrls\[0\]\.depth/),
    );
    await assert.rejects(
      store.recordVisits([visit(a, { newUrls: [{ url: fresh, depth: 1, priority: Number.NaN }] })]),
      isInvalid(/recordVisits\[0\]\.newUrls\[0\]\.priority/),
    );
    const changed = visit(b, {
      change: 'changed',
      contentHash: 'h-b2',
      page: {
        status: 200,
        contentType: 'text/html',
        bytes: 3,
        title: 'B2',
        relevance: 0.8,
        body: Buffer.from('new'),
      },
      newUrls: [
        { url: fresh, depth: 1, priority: 0.5 },
        { url: url('nb-orphan'), depth: 1, priority: 0.5, parent: url('nb-nowhere') },
      ],
    });
    await assert.rejects(
      store.recordVisits([visit(a, { newUrls: [{ url: fresh, depth: 1, priority: 0 }] }), changed]),
      isInvalid(/recordVisits\[1\]\.newUrls\[1\]\.parent: .* is not a known URL/),
    );
    // Nothing of the batch is recorded: no visit, no URL, the old copy, the claims held.
    assert.deepEqual(await collect(store.visits()), []);
    assert.deepEqual(await collect(store.urls('waiting')), []);
    assert.equal(String(await store.readBody(b)), `old ${b}`);
    assert.deepEqual(
      (await collect(store.revisits())).map((r) => r.claimed),
      [true, true],
    );
    assert.deepEqual(await store.recordVisits([visit(a), visit(b, { newUrls: [] })]), {
      refused: [],
      added: 0,
    });
  });

  test('a refused visit queues none of its new URLs', async ({ store }) => {
    const [a, b] = (await kept(store, 2, 'nr')) as [string, string];
    await store.scheduleRevisits([
      { url: a, dueAt: 2_000 },
      { url: b, dueAt: 2_000 },
    ]);
    const l1 = await store.openLease(thisProcess(1), later());
    const l2 = await store.openLease(thisProcess(2), later());
    await store.claimDue(1, { now: 2_000, lease: l1.id });
    await store.claimDue(1, { now: 2_000, lease: l2.id });
    const [fromA, fromB] = [url('nr-from-a'), url('nr-from-b')];
    const r = await store.recordVisits(
      [
        visit(a, { change: 'changed', newUrls: [{ url: fromA, depth: 1, priority: 0.5 }] }),
        visit(b, { change: 'changed', newUrls: [{ url: fromB, depth: 1, priority: 0.5 }] }),
      ],
      { lease: l1.id },
    );
    assert.deepEqual(r, { refused: [b], added: 1 });
    assert.deepEqual(
      (await collect(store.urls('waiting'))).map((u) => [u.url, u.parent]),
      [[fromA, a]],
    );
    // Its lease lost, b is claimed again and recorded under the new one.
    await store.closeLease(l2.id);
    const l3 = await store.openLease(thisProcess(3), later());
    await store.claimDue(1, { now: 2_000, lease: l3.id });
    const again = await store.recordVisits(
      [
        visit(b, {
          change: 'changed',
          newUrls: [
            { url: fromA, depth: 1, priority: 0.5 },
            { url: fromB, depth: 1, priority: 0.5 },
          ],
        }),
      ],
      { lease: l2.id },
    );
    assert.deepEqual(again, { refused: [b], added: 0 });
    assert.deepEqual(
      await store.recordVisits(
        [
          visit(b, {
            change: 'changed',
            newUrls: [
              { url: fromA, depth: 1, priority: 0.5 },
              { url: fromB, depth: 1, priority: 0.5 },
            ],
          }),
        ],
        { lease: l3.id },
      ),
      { refused: [], added: 1 },
    );
    assert.deepEqual(
      (await collect(store.urls('waiting'))).map((u) => [u.url, u.parent]),
      [
        [fromA, a],
        [fromB, b],
      ],
    );
  });

  test('revisit records and the visit history survive closing and reopening the store', async (h) => {
    if (h.reopen === undefined) return;
    const [a] = (await kept(h.store, 1)) as [string];
    await h.store.scheduleRevisits([{ url: a, dueAt: 2_000, rate: 1.5 }]);
    await h.store.claimDue(1, { now: 2_000 });
    await h.store.recordVisits([visit(a, { change: 'changed', rate: 3, etag: '"x"' })]);
    await h.store.close();
    h.store = await h.reopen();
    const [rec] = await collect(h.store.revisits());
    assert.deepEqual(
      [rec?.visits, rec?.changes, rec?.rate, rec?.etag, rec?.dueAt],
      [1, 1, 3, '"x"', 9_000],
    );
    assert.equal((await collect(h.store.visits(a))).length, 1);
  });
}
