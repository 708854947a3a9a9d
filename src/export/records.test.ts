import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type FieldRecord, openStore, type PageRecord, type Store } from '../store/index.js';
import { buildRecordStore, NASTY, SAMPLE_FIELD_NAMES } from './__fixtures__/records.js';
import { exportLines, exportStore, LIST_SEPARATOR } from './index.js';
import { MAX_JOIN_PASSES, recordRows } from './records.js';
import { parseCsv, SAMPLE } from './testing.js';

let dir: string;
/** `NASTY` as the SQLite store gives it back (lone surrogates replaced). */
let nasty: string;
before(async () => {
  dir = await buildRecordStore();
  nasty = await withStore(async (s) => {
    for await (const f of s.fields({ url: SAMPLE.home }))
      if (f.field === 'body') return f.value ?? '';
    return '';
  });
});

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(dir, { readonly: true });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function text(store: Store, options: Parameters<typeof exportLines>[1]): Promise<string> {
  let out = '';
  for await (const l of exportLines(store, options)) out += l;
  return out;
}

/** The store with some methods replaced. */
function patched(store: Store, patch: Partial<Store>): Store {
  return new Proxy(store, {
    get(target, key) {
      const own = (patch as Record<string | symbol, unknown>)[key];
      if (own !== undefined) return own;
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

const homeArticle = () => ({
  url: SAMPLE.home,
  title: SAMPLE.homeTitle,
  relevance: 0.8,
  fetchedAt: '2024-05-01T12:00:00.000Z',
  ruleSet: 'article',
  fields: {
    author: 'Zoë "Z" O\'Neil',
    body: nasty,
    price: null,
    tags: ['a', null, 'c, d'],
  },
});
const HOME_META = {
  url: SAMPLE.home,
  title: SAMPLE.homeTitle,
  relevance: 0.8,
  fetchedAt: '2024-05-01T12:00:00.000Z',
  ruleSet: 'meta',
  fields: JSON.parse('{"__proto__":"proto","description":"电网 news"}'),
};
const P1_ARTICLE = {
  url: SAMPLE.p1,
  title: SAMPLE.p1Title,
  relevance: 0.6,
  fetchedAt: '2024-05-01T12:00:01.000Z',
  ruleSet: 'article',
  fields: { author: '王小明', tags: '显示器', title: '显示器市场' },
};

test('records as JSON Lines: one per page and rule set, lists as arrays, nulls as null', async () => {
  const out = await withStore((s) => text(s, { what: 'records' }));
  const rows = out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { fields: object });
  // `__proto__` is an own key, in the store's order (by code point)
  assert.deepEqual(Object.keys(rows[1]?.fields ?? {}), ['__proto__', 'description']);
  assert.deepEqual(Object.keys(rows[0] ?? {}), [
    'url',
    'title',
    'relevance',
    'fetchedAt',
    'ruleSet',
    'fields',
  ]);
  assert.deepEqual(rows, [homeArticle(), HOME_META, P1_ARTICLE]);
  // p2 (no fields) has no record
  assert.ok(!out.includes(SAMPLE.p2));
});

test('records as CSV: a fields.NAME column per field name of the export, lists joined', async () => {
  const out = await withStore((s) => text(s, { what: 'records', format: 'csv' }));
  const [header, ...records] = parseCsv(out);
  assert.deepEqual(header, [
    'url',
    'title',
    'relevance',
    'fetchedAt',
    'ruleSet',
    ...SAMPLE_FIELD_NAMES.map((n) => `fields.${n}`),
  ]);
  assert.equal(records.length, 3);
  const col = (name: string) => header?.indexOf(`fields.${name}`) ?? -1;
  const [article, meta, p1] = records;
  assert.equal(article?.[col('tags')], ['a', '', 'c, d'].join(LIST_SEPARATOR));
  assert.equal(article?.[col('body')], nasty);
  assert.ok(nasty.startsWith(NASTY.slice(0, 20)));
  assert.equal(article?.[col('price')], '');
  assert.equal(article?.[col('description')], ''); // the other rule set's field
  assert.equal(meta?.[col('__proto__')], 'proto');
  assert.equal(meta?.[4], 'meta');
  assert.equal(p1?.[col('tags')], '显示器');
  assert.equal(p1?.[col('title')], '显示器市场');
  assert.equal(p1?.[1], SAMPLE.p1Title);
});

test('a store without fields has no records (CSV: the header alone)', async () => {
  const { buildSampleStore } = await import('./testing.js');
  const bare = await openStore(await buildSampleStore(), { readonly: true });
  try {
    assert.equal(await text(bare, { what: 'records' }), '');
    assert.equal(
      await text(bare, { what: 'records', format: 'csv' }),
      'url,title,relevance,fetchedAt,ruleSet\r\n',
    );
    assert.deepEqual(await exportStore(bare, { what: 'records' }, () => {}), { rows: 0 });
  } finally {
    await bare.close();
  }
});

test('the join reads each stream once, side by side', async () => {
  await withStore(async (store) => {
    let pagePasses = 0;
    let fieldPasses = 0;
    const counting = patched(store, {
      pages: () => {
        pagePasses++;
        return store.pages();
      },
      fields: (o) => {
        fieldPasses++;
        return store.fields(o);
      },
    });
    const rows = [];
    for await (const r of recordRows(counting)) rows.push(`${r.url} ${r.ruleSet}`);
    assert.deepEqual(rows, [
      `${SAMPLE.home} article`,
      `${SAMPLE.home} meta`,
      `${SAMPLE.p1} article`,
    ]);
    assert.deepEqual([pagePasses, fieldPasses], [1, 1]);
  });
});

test('fields written during the export: an out-of-order page is found again, an unknown one left out', async () => {
  await withStore(async (store) => {
    const all: FieldRecord[] = [];
    for await (const f of store.fields()) all.push(f);
    const row = (url: string, value: string): FieldRecord => ({
      url,
      ruleSet: 'late',
      field: 'x',
      position: 0,
      value,
    });
    // p1's rows first, then home's (as if written after the pages stream passed home),
    // and a page that is not among the pages at all
    const shuffled = [
      ...all.filter((f) => f.url === SAMPLE.p1),
      row('http://gone.test/', 'orphan'),
      ...all.filter((f) => f.url === SAMPLE.home),
    ];
    let pagePasses = 0;
    const racing = patched(store, {
      pages: () => {
        pagePasses++;
        return store.pages();
      },
      fields: async function* () {
        yield* shuffled;
      },
    });
    const rows = [];
    for await (const r of recordRows(racing)) rows.push(`${r.url} ${r.ruleSet}`);
    assert.deepEqual(rows, [
      `${SAMPLE.p1} article`,
      `${SAMPLE.home} article`,
      `${SAMPLE.home} meta`,
    ]);
    assert.ok(pagePasses <= 3, `${pagePasses} passes`);
  });
});

test('a store that keeps changing fails the records export after MAX_JOIN_PASSES passes', async () => {
  await withStore(async (store) => {
    const orphans = async function* (): AsyncGenerator<FieldRecord> {
      for (let i = 0; i <= MAX_JOIN_PASSES; i++) {
        yield { url: `http://gone.test/${i}`, ruleSet: 'r', field: 'f', position: 0, value: null };
      }
    };
    const racing = patched(store, { fields: orphans });
    await assert.rejects(
      exportStore(racing, { what: 'records' }, () => {}),
      {
        code: 'FC_ERR_STORE',
        message: /changed too much while it was read/,
      },
    );
  });
});

test('a page with fields of one position only above 0 is still a list', async () => {
  const page = { url: 'http://x.test/', title: null, relevance: 0.5, fetchedAt: 0 } as PageRecord;
  const store = {
    pages: async function* () {
      yield page;
    },
    fields: async function* () {
      yield { url: page.url, ruleSet: 'r', field: 'f', position: 1, value: 'v' };
    },
  } as unknown as Store;
  const rows = [];
  for await (const r of recordRows(store)) rows.push(r);
  assert.deepEqual(rows[0]?.fields, [{ name: 'f', values: ['v'], list: true }]);
});
