// Stores with extracted fields, for the tests of the records export and of the
// formats: the export sample store (../testing.ts) with fields, hostile text in
// them, and a memory store with the same (whose strings keep lone surrogates).
import { createMemoryStore, openStore, type PageFields, type Store } from '../../store/index.js';
import { type ExportOptionsInput, exportLines } from '../index.js';
import { buildSampleStore, SAMPLE, T0 } from '../testing.js';

/**
 * Everything a format has to survive: C0 controls (NUL first), `]]>`, markup
 * characters, CJK, an emoji (a surrogate pair), lone surrogates, CR LF and tab,
 * U+2028, U+FFFE and U+FFFF, a backslash and SQL quotes.
 */
export const NASTY =
  "\u0000\u0001\u0008\u000B\u000C\u001F|]]>|<&>\"'|中文|😀|\uD800|x\uDC00|\r\n\t|\u2028|\uFFFE\uFFFF|\\''|end";

/**
 * Fields of the sample store's pages: `home` has two rule sets (`article` with a
 * list `tags` holding a null, a null `price`, the hostile `body`; `meta` with a
 * field named `__proto__`), `p1` one (its `tags` a single value); `p2` none.
 */
export const SAMPLE_FIELDS: PageFields[] = [
  {
    url: SAMPLE.home,
    fields: [
      { ruleSet: 'article', field: 'author', position: 0, value: 'Zoë "Z" O\'Neil' },
      { ruleSet: 'article', field: 'body', position: 0, value: NASTY },
      { ruleSet: 'article', field: 'price', position: 0, value: null },
      { ruleSet: 'article', field: 'tags', position: 0, value: 'a' },
      { ruleSet: 'article', field: 'tags', position: 1, value: null },
      { ruleSet: 'article', field: 'tags', position: 2, value: 'c, d' },
      { ruleSet: 'meta', field: 'description', position: 0, value: '电网 news' },
      { ruleSet: 'meta', field: '__proto__', position: 0, value: 'proto' },
    ],
  },
  {
    url: SAMPLE.p1,
    fields: [
      { ruleSet: 'article', field: 'author', position: 0, value: '王小明' },
      { ruleSet: 'article', field: 'tags', position: 0, value: '显示器' },
      { ruleSet: 'article', field: 'title', position: 0, value: '显示器市场' },
    ],
  },
];

/** The field columns of a flat (CSV, HTML) records export of the sample, in order. */
export const SAMPLE_FIELD_NAMES = [
  '__proto__',
  'author',
  'body',
  'description',
  'price',
  'tags',
  'title',
];

/** The sample SQLite store (../testing.ts) with `SAMPLE_FIELDS`; returns its directory. */
export async function buildRecordStore(): Promise<string> {
  const dir = await buildSampleStore();
  const store = await openStore(dir);
  try {
    await store.replaceFields(SAMPLE_FIELDS);
  } finally {
    await store.close();
  }
  return dir;
}

/** A hostile page title. */
export const NASTY_TITLE = `T ${NASTY}`;

/**
 * A memory store with the sample's two pages that have fields (`home` titled
 * `NASTY_TITLE`, with a body holding `NASTY`; `p1`) and `SAMPLE_FIELDS`.
 */
export async function buildMemoryRecordStore(): Promise<Store> {
  const store = createMemoryStore();
  await store.addSeeds([SAMPLE.home, SAMPLE.p1]);
  await store.claim(2);
  const body = Buffer.from(`<html><body>${NASTY}</body></html>`, 'utf8');
  await store.commit([
    {
      url: SAMPLE.home,
      state: 'complete',
      result: {
        fetchedAt: T0,
        status: 200,
        contentType: 'text/html',
        bytes: body.length,
        title: NASTY_TITLE,
        relevance: 0.8,
        body,
      },
    },
    {
      url: SAMPLE.p1,
      state: 'complete',
      result: {
        fetchedAt: T0 + 1000,
        status: 200,
        contentType: 'text/html',
        bytes: 4,
        title: SAMPLE.p1Title,
        relevance: 0.6,
        body: Buffer.from('<p>', 'utf8'),
      },
    },
  ]);
  await store.replaceFields(SAMPLE_FIELDS);
  return store;
}

/** An export of `store` as JSON Lines, parsed: one object per row (tests compare SQL loads with it). */
export async function jsonRows(
  store: Store,
  o: ExportOptionsInput,
): Promise<Record<string, unknown>[]> {
  let text = '';
  for await (const l of exportLines(store, { ...o, format: 'jsonl' })) text += l;
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A JSON field name as the SQL export names its column (`fetchedAt` → `fetched_at`). */
export const snakeCase = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
