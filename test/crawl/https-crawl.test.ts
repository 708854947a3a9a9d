// Whole crawls through the CLI over a test web serving HTTP and HTTPS on one port
// (certificates made at test time, trusted with --ca-file): an HTTPS-only host reached
// by http:// links keeps its pages under https://, each fetched once; a plain-HTTP host
// beside it keeps its own; robots.txt of each scheme governs its URLs; a host whose
// certificate expired fails with FC_ERR_TLS_CERT in the history, tried once.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MOVED_HOST, MOVED_PAGES, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { makeTestCerts, type TestCerts } from '../fetch/certs.js';
import { crawlTestWeb, runCli } from '../run-cli.js';
import { all, inStore } from '../store-read.js';

const ROBOTS_HOST = 'robots-rules.test';
const PLAIN_HOST = 'robotstag.test';
const SECURE_ONLY = [MOVED_HOST, ROBOTS_HOST];
let web: TestWeb;
let certs: TestCerts;
const root = tempDir('https-crawl');
const topic = join(root, 'topic.json');
let n = 0;

before(async () => {
  certs = await makeTestCerts([MOVED_HOST, ROBOTS_HOST, 'expired.test']);
  web = await startTestWeb({
    tls: { ...certs.good, hosts: { 'expired.test': certs.expired } },
    httpsOnlyHosts: SECURE_ONLY,
  });
  // A keyword no link mentions: every page kept, links claimed in discovery order.
  writeFileSync(topic, JSON.stringify({ name: 'any', keywords: { zzz: 1 }, threshold: 0 }));
});
after(() => web.close());

function crawl(seeds: string[], ...extra: string[]) {
  const store = join(root, `s${++n}`);
  const seedFile = join(root, `seeds${n}.txt`);
  writeFileSync(seedFile, `${seeds.join('\n')}\n`);
  const run = crawlTestWeb(
    web,
    store,
    topic,
    seedFile,
    '--ca-file',
    certs.caFile,
    '--concurrency',
    '8',
    ...extra,
  );
  return { store, run };
}

/** Requests of `host` (robots.txt aside) over TLS or plain HTTP: `STATUS PATH`. */
function requested(host: string, tls: boolean): string[] {
  return web.requests
    .filter((r) => r.host === host && (r.tls === true) === tls && r.path !== '/robots.txt')
    .map((r) => `${r.status} ${r.path}`);
}

test('http:// links to HTTPS-only hosts: their pages kept under https://, each fetched once, under their https robots.txt; the HTTP host beside them keeps http://', async () => {
  web.clearLog();
  const { store, run } = crawl([
    'http://moved.test/',
    'http://robots-rules.test/',
    'http://robotstag.test/',
  ]);
  const r = await run;
  assert.equal(r.code, 0, r.err);

  // moved.test: over plain HTTP only the seed's 301; over TLS each page once.
  assert.deepEqual(requested(MOVED_HOST, false), ['301 /']);
  const secure = requested(MOVED_HOST, true);
  const ok = secure.filter((s) => s.startsWith('200 '));
  assert.equal(new Set(ok).size, ok.length, `a page fetched twice: ${ok.join(', ')}`);
  for (let k = 0; k < MOVED_PAGES; k++) assert.ok(ok.includes(`200 /page-${k}`), `/page-${k}`);
  // robots-rules.test: its plain-HTTP robots.txt allows everything, its https one does
  // not: what the https one disallows is never asked for.
  assert.deepEqual(requested(ROBOTS_HOST, false), ['301 /']);
  const secured = requested(ROBOTS_HOST, true).map((s) => s.slice(4));
  assert.ok(secured.includes('/private/open'), secured.join(', '));
  for (const p of secured) {
    assert.ok(!(p.startsWith('/private/') && !p.startsWith('/private/open')), p);
    assert.ok(!p.endsWith('.pdf') && !p.startsWith('/search?'), p);
  }
  // robotstag.test: plain HTTP only.
  assert.deepEqual(requested(PLAIN_HOST, true), []);
  assert.ok(requested(PLAIN_HOST, false).length > 1);

  await inStore(store, async (s) => {
    const urls = await all(s.urls());
    const complete = urls.filter((u) => u.state === 'complete').map((u) => u.url);
    for (let k = 0; k < MOVED_PAGES; k++) {
      assert.ok(complete.includes(`https://moved.test/page-${k}`), `https://moved.test/page-${k}`);
    }
    for (const u of complete) {
      const { protocol, hostname } = new URL(u);
      assert.equal(protocol, SECURE_ONLY.includes(hostname) ? 'https:' : 'http:', u);
    }
    assert.ok(complete.includes('https://robots-rules.test/private/open'));
    assert.ok(complete.some((u) => u.startsWith('http://robotstag.test/')));
    // The seed's hop is kept as a redirect to its https:// self.
    const seed = urls.find((u) => u.url === 'http://moved.test/');
    assert.equal(seed?.state, 'redirect');
    assert.equal(seed?.redirectTo, 'https://moved.test/');
    const history = await all(s.history());
    // The only failures: what the https robots.txt disallows.
    const failed = history.filter((h) => h.error !== null);
    assert.ok(failed.length >= 3, `${failed.length} failures`);
    for (const h of failed) {
      assert.match(h.url, /^https:\/\/robots-rules\.test\//, h.url);
      assert.match(
        h.error ?? '',
        /^FC_ERR_ROBOTS_DISALLOWED: https:\/\/robots-rules\.test\/robots\.txt /,
      );
    }
    const pages = history.filter((h) => h.state === 'complete').map((h) => h.url);
    assert.equal(new Set(pages).size, pages.length, 'no page completed twice');
  });
});

test('a host whose certificate expired: FC_ERR_TLS_CERT (reason: expired) in the history, tried once', async () => {
  web.clearLog();
  const { store, run } = crawl(
    ['https://expired.test/', 'http://moved.test/page-1'],
    '--max-attempts',
    '3',
  );
  const r = await run;
  assert.equal(r.code, 0, r.err);
  await inStore(store, async (s) => {
    const history = await all(s.history());
    const failed = history.filter((h) => h.url === 'https://expired.test/');
    assert.equal(failed.length, 1, JSON.stringify(failed));
    assert.match(failed[0]?.error ?? '', /^FC_ERR_TLS_CERT: .*\(reason: expired\)/);
    const urls = await all(s.urls());
    assert.equal(urls.find((u) => u.url === 'https://expired.test/')?.state, 'error');
    assert.equal(urls.find((u) => u.url === 'https://moved.test/page-1')?.state, 'complete');
  });
  const status = await runCli('status', '--store', store);
  assert.equal(status.code, 0, status.err);
  assert.match(status.out, /FC_ERR_TLS_CERT/);
});
