import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMemoryStore, openStore, type Store } from '../store/index.js';
import { tempDir } from '../util/testing.js';
import { exportLines, exportStore, exportToFile } from './index.js';
import { buildSampleStore, SAMPLE } from './testing.js';

/** The store with one stream replaced. */
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

test('a large table is streamed in chunks, each write awaited before the next', async () => {
  const dir = join(tempDir('export'), 'big');
  const store = await openStore(dir, { create: true });
  try {
    const n = 2500; // more than two of the store's 1000-row reads
    await store.addUrls(
      Array.from({ length: n }, (_, i) => ({
        url: `http://big.test/${i}/${'x'.repeat(40)}`,
        depth: 1,
        priority: 0,
      })),
    );
    let inWrite = 0;
    const chunks: string[] = [];
    const { rows } = await exportStore(store, { what: 'urls', format: 'csv' }, async (chunk) => {
      assert.equal(inWrite, 0, 'write called again before the last one finished');
      inWrite++;
      await new Promise((r) => setTimeout(r, 1));
      chunks.push(chunk);
      inWrite--;
    });
    assert.equal(rows, n);
    assert.ok(chunks.length > 1, `${chunks.length} chunk(s)`);
    assert.ok(chunks.every((c) => c.endsWith('\r\n')));
    const lines = chunks.join('').split('\r\n');
    assert.equal(lines.length, n + 2); // header, n rows, '' after the last CRLF
    assert.match(lines[n] ?? '', /^\d+,http:\/\/big\.test\/2499\//);
  } finally {
    await store.close();
  }
});

test('a failed export leaves neither a partial file nor a .tmp, and keeps the old file', async () => {
  const dir = await buildSampleStore();
  const store = await openStore(dir, { readonly: true });
  const outDir = tempDir('export-out');
  const file = join(outDir, 'history.jsonl');
  writeFileSync(file, 'the previous export\n');
  const broken = patched(store, {
    history: async function* () {
      let i = 0;
      for await (const h of store.history()) {
        if (++i === 3) throw new Error('disk went away');
        yield h;
      }
    },
  });
  try {
    await assert.rejects(exportToFile(broken, { what: 'history' }, file), /disk went away/);
    assert.deepEqual(readdirSync(outDir), ['history.jsonl']);
    assert.equal(readFileSync(file, 'utf8'), 'the previous export\n');
    const fresh = join(outDir, 'fresh.csv');
    await assert.rejects(exportToFile(broken, { what: 'history', format: 'csv' }, fresh));
    assert.ok(!existsSync(fresh));
  } finally {
    await store.close();
  }
});

test('a body that cannot be read fails the pages export with its error', async () => {
  const dir = await buildSampleStore();
  const store = await openStore(dir, { readonly: true });
  const broken = patched(store, {
    readBody: async (url: string) => {
      if (url === SAMPLE.p2) throw new Error(`cannot read the body of ${url}`);
      return store.readBody(url);
    },
  });
  try {
    await assert.rejects(
      exportStore(broken, { what: 'pages', bodyConcurrency: 4 }, () => {}),
      /cannot read the body of http:\/\/a\.test\/p2/,
    );
    // without the text, no body is read
    const { rows } = await exportStore(broken, { what: 'pages', text: false }, () => {});
    assert.equal(rows, 3);
  } finally {
    await store.close();
  }
});

test('page texts keep the page order whatever the concurrency', async () => {
  const dir = await buildSampleStore();
  const store = await openStore(dir, { readonly: true });
  try {
    for (const bodyConcurrency of [1, 2, 64]) {
      const urls: unknown[] = [];
      for await (const line of exportLines(store, { what: 'pages', bodyConcurrency })) {
        urls.push(JSON.parse(line).url);
      }
      assert.deepEqual(urls, [SAMPLE.home, SAMPLE.p1, SAMPLE.p2], String(bodyConcurrency));
    }
  } finally {
    await store.close();
  }
});

test('invalid export options name the field', async () => {
  const dir = await buildSampleStore();
  const store = await openStore(dir, { readonly: true });
  try {
    const cases: [Parameters<typeof exportStore>[1], RegExp][] = [
      [{ what: 'links', state: 'waiting' }, /state: state applies to what "urls" or "pages" only/],
      [{ what: 'pages', state: 'waiting' }, /state: a page is "complete" \(kept\) or "discard"/],
      [{ what: 'urls', format: 'jsonl', bom: true }, /bom: bom applies to format "csv" only/],
      [{ what: 'tables' as 'urls' }, /what:/],
      [{ what: 'urls', extra: 1 } as Parameters<typeof exportStore>[1], /extra/],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(
        exportStore(store, options, () => {}),
        {
          code: 'FC_ERR_INVALID_OPTION',
          message,
        },
      );
    }
  } finally {
    await store.close();
  }
});

test('changes: the revisits of a memory store, through exportLines', async () => {
  const store = createMemoryStore();
  const url = 'http://m.test/';
  await store.addSeeds([url]);
  await store.claim(1);
  await store.complete(url, { fetchedAt: 1000, status: 200, bytes: 5, relevance: 0.5 });
  await store.scheduleRevisits([{ url, dueAt: 2000 }]);
  await store.claimDue(1, { now: 2000 });
  await store.recordVisits([
    { url, at: 2500, status: 304, change: 'unchanged', lastModifiedMs: 0, dueAt: null },
  ]);
  const lines: string[] = [];
  for await (const l of exportLines(store, { what: 'changes', format: 'csv' })) lines.push(l);
  assert.deepEqual(lines, [
    'url,at,status,change,contentHash,textHash,lastModified,error\r\n',
    `${url},1970-01-01T00:00:02.500Z,304,unchanged,,,1970-01-01T00:00:00.000Z,\r\n`,
  ]);
  const json: string[] = [];
  for await (const l of exportLines(store, { what: 'changes' })) json.push(l);
  assert.deepEqual(json, [
    `{"url":"${url}","at":"1970-01-01T00:00:02.500Z","status":304,"change":"unchanged","contentHash":null,"textHash":null,"lastModified":"1970-01-01T00:00:00.000Z","error":null}\n`,
  ]);
});

test('every piece of a text format ends with a line end', async () => {
  const dir = await buildSampleStore();
  const store = await openStore(dir, { readonly: true });
  try {
    for (const format of ['jsonl', 'csv', 'xml', 'html', 'sql'] as const) {
      for (const what of ['history', 'pages', 'urls', 'links', 'changes', 'records'] as const) {
        for await (const piece of exportLines(store, { what, format })) {
          assert.ok(piece.endsWith('\n'), `${what} ${format}: ${JSON.stringify(piece.slice(-40))}`);
        }
      }
    }
  } finally {
    await store.close();
  }
});
