// Session-id copies stop costing requests (docs/dedup.md, "URL copies"). Regression: a
// focused crawl of the medium web fetched session-id copies of pages it had kept
// (`/articles/10687.html?s=49cf4720`), raised by neighbours' loans; each was a request
// for a duplicate. The crawl now learns the key from two copies, drops it from the
// host's links, keeps what it learnt in the store, and does not fetch a queued copy.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CrawlOptionsInput, crawl } from '../../src/crawl/index.js';
import { openStore } from '../../src/store/index.js';
import {
  duplicateOf,
  labels,
  startTestWeb,
  type TestWeb,
  variantHosts,
} from '../../src/testweb/index.js';

const WEB = { seed: 1, size: 'small' as const };
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-copykeys-'));
let web: TestWeb;
const host = variantHosts(WEB)[0];
assert.ok(host, 'the test web has hosts with session ids');
/** A session-id variant of a page (not a print view). */
const isSessionCopy = (url: string) =>
  duplicateOf(WEB, url) !== undefined && /[?&;](s|jsessionid)=/.test(url);

before(async () => {
  web = await startTestWeb({ port: 0, ...WEB });
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

function options(name: string, o: Partial<CrawlOptionsInput>): CrawlOptionsInput {
  const topic = labels(WEB).topics[0]?.topic;
  assert.ok(topic);
  return {
    store: join(root, name),
    topic,
    seeds: [`http://${host}/`],
    scope: 'same-host',
    threshold: 0,
    strategy: 'bfs',
    maxPages: 250,
    fetcher: {
      resolve: [web.resolve],
      allowPrivateAddresses: true,
      delayMs: 0,
      concurrency: 4,
      perHostConcurrency: 4,
    },
    ...o,
  };
}

/** Session copies requested (history rows with an answer), refusals, and the learnt keys. */
async function copiesOf(name: string) {
  const s = await openStore(join(root, name), { readonly: true });
  let fetched = 0;
  const refused: string[] = [];
  for await (const h of s.history()) {
    if (!isSessionCopy(h.url)) continue;
    if (h.status !== null) fetched++;
    else if (h.error?.includes('a copy of')) refused.push(h.error);
  }
  const keys = await s.getMeta<Record<string, string[]>>('copyKeys');
  await s.close();
  return { fetched, refused, keys };
}

describe('keys that change nothing', () => {
  it('a crawl stops fetching session-id copies once two have taught it the key', async () => {
    await crawl(options('off', { learnCopyKeys: false }));
    await crawl(options('on', {}));
    const off = await copiesOf('off');
    const on = await copiesOf('on');
    assert.ok(off.fetched >= 10, `without learning, ${off.fetched} session copies fetched`);
    assert.equal(off.keys, undefined);
    assert.deepEqual(on.keys?.[`http://${host}`], ['s']);
    // Two copies teach the key; copies queued meanwhile are refused, not fetched.
    assert.ok(on.fetched <= 4, `with learning, ${on.fetched} session copies fetched`);
    for (const e of on.refused)
      assert.match(e, /^FC_ERR_OUT_OF_SCOPE.*learnt to change nothing: s\)/);
  });

  it('a resumed crawl drops the learnt keys from its first page on', async () => {
    await crawl(options('resume', { maxPages: 80 }));
    const first = await copiesOf('resume');
    assert.deepEqual(first.keys?.[`http://${host}`], ['s']);
    await crawl(options('resume', { maxPages: 250 }));
    const second = await copiesOf('resume');
    assert.equal(second.fetched, first.fetched, 'no session copy fetched after the resume');
  });
});
