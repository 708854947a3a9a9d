/**
 * A crawl-like writer for the crash test (sqlite.test.ts), killed with SIGKILL at
 * random moments: claims, completes (with bodies, some reached through a redirect),
 * discards, fails and adds URLs in a loop, and appends to an acknowledgement file, after each call returned,
 * what that call stored:
 *   `added <url>…`  URLs known to the store
 *   `done <state> <url>`  a fetch outcome recorded
 * Usage: node --import tsx src/store/crash-writer.ts STORE_DIR ACK_FILE RUN_ID
 */
import { openSync, writeSync } from 'node:fs';
import { openStore } from './sqlite-open.js';
import type { NewUrl, Outcome } from './types.js';

const [dir, ackFile, run] = process.argv.slice(2);
if (dir === undefined || ackFile === undefined || run === undefined) {
  throw new Error('usage: crash-writer.ts STORE_DIR ACK_FILE RUN_ID');
}
const ack = openSync(ackFile, 'a');
const say = (line: string) => writeSync(ack, `${line}\n`);

const store = await openStore(dir, { create: true });
await store.recover();
await store.addSeeds(['http://seed.test/']);
process.stdout.write('ready\n');

let n = 0;
const fresh = (depth: number): NewUrl => ({
  url: `http://h${n % 5}.test/r${run}/${n++}`,
  depth,
  priority: (n * 7919) % 101,
});

for (let round = 0; ; round++) {
  const claimed = await store.claim(8);
  if (claimed.length === 0 || round % 5 === 0) {
    const items = [fresh(1), fresh(1), fresh(2)];
    await store.addUrls(items);
    say(`added ${items.map((i) => i.url).join(' ')}`);
  }
  const outcomes: Outcome[] = claimed.map((c, k) => {
    const fetchedAt = Date.now();
    if (k === 7) return { url: c.url, state: 'error', result: { fetchedAt, error: 'boom' } };
    const newUrls = [fresh(c.depth + 1), fresh(c.depth + 1), fresh(c.depth + 1)];
    // The sixth page is reached through a redirect to a new URL: stored under it.
    const to = k === 5 ? fresh(c.depth).url : c.url;
    return {
      url: c.url,
      state: k % 3 === 2 ? 'discard' : 'complete',
      result: {
        fetchedAt,
        status: 200,
        bytes: 2000,
        relevance: k / 10,
        body: Buffer.alloc(2000 + k, to),
        links: newUrls.map((u) => ({ url: u.url })),
        newUrls,
        ...(to === c.url ? {} : { redirects: [{ url: c.url, status: 301, location: to }] }),
      },
    };
  });
  const report = (o: Outcome) => {
    if (o.state === 'complete' || o.state === 'discard') {
      const to = o.result.redirects?.at(-1)?.location;
      if (to !== undefined) say(`added ${to}`);
      say(`added ${(o.result.newUrls ?? []).map((u) => u.url).join(' ')}`);
      if (to !== undefined) {
        say(`done redirect ${o.url}`);
        say(`done ${o.state} ${to}`);
        return;
      }
    }
    say(`done ${o.state} ${o.url}`);
  };
  if (round % 3 === 0) {
    for (const o of outcomes) {
      if (o.state === 'error') await store.fail(o.url, o.result);
      else if (o.state === 'discard') await store.discard(o.url, o.result);
      else if (o.state === 'complete') await store.complete(o.url, o.result);
      report(o);
    }
  } else {
    await store.commit(outcomes);
    outcomes.forEach(report);
  }
  if (round % 50 === 49) await store.reclaim((await store.claim(2)).map((c) => c.url));
}
