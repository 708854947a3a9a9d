// Every format streams: output starts long before the store has been read through,
// in many chunks, each write awaited.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openStore, type Store } from '../store/index.js';
import { buildBulkStore } from './__fixtures__/bulk.js';
import { EXPORT_FORMATS, type ExportOptionsInput, exportStore } from './index.js';

const PAGES = 3000;
let store: Store;
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-stream-'));
before(async () => {
  const dir = join(root, 'store');
  await buildBulkStore(dir, { pages: PAGES, bodyBytes: 600 });
  store = await openStore(dir, { readonly: true });
});
after(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

/** The store counting the pages and field rows read from it. */
function counting(s: Store, read: { pages: number; fields: number }): Store {
  return new Proxy(s, {
    get(target, key) {
      if (key === 'pages') {
        return async function* () {
          for await (const p of target.pages()) {
            read.pages++;
            yield p;
          }
        };
      }
      if (key === 'fields') {
        return async function* () {
          for await (const f of target.fields()) {
            read.fields++;
            yield f;
          }
        };
      }
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

for (const format of EXPORT_FORMATS) {
  const whats: ExportOptionsInput['what'][] = format === 'warc' ? ['pages'] : ['pages', 'records'];
  for (const what of whats) {
    test(`${what} as ${format} streams`, async () => {
      const read = { pages: 0, fields: 0 };
      let pagesAtFirstWrite = -1;
      let writes = 0;
      let bytes = 0;
      let busy = false;
      const o: ExportOptionsInput = {
        what,
        format,
        ...(what === 'pages' && format !== 'warc' ? { text: false } : {}),
      };
      const { rows } = await exportStore(counting(store, read), o, async (chunk) => {
        assert.ok(!busy, 'a write before the last one finished');
        busy = true;
        if (writes++ === 0) pagesAtFirstWrite = read.pages;
        bytes += chunk.length;
        await new Promise((r) => setImmediate(r));
        busy = false;
      });
      // bulk pages: rule set `article` on every page, `meta` on the even ones
      assert.equal(rows, what === 'records' ? PAGES + PAGES / 2 : PAGES);
      assert.equal(read.pages, PAGES);
      assert.ok(writes >= 4, `${writes} writes of ${bytes} bytes`);
      assert.ok(
        pagesAtFirstWrite < PAGES / 2,
        `the first write came after ${pagesAtFirstWrite} of ${PAGES} pages were read`,
      );
    });
  }
}
