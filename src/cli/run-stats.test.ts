import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  errorCode,
  type FetchRecord,
  type FetchStats,
  FetchTally,
  fetchStatsRows,
  hostOf,
  tallyFetches,
} from './run-stats.js';

describe('errorCode', () => {
  const cases: [string, string][] = [
    ['FC_ERR_DNS: getaddrinfo ENOTFOUND a.test', 'FC_ERR_DNS'],
    ['FC_ERR_CONNECT_TIMEOUT: no connection within 10000 ms', 'FC_ERR_CONNECT_TIMEOUT'],
    ['HTTP 404', 'HTTP 404'],
    ['HTTP 503: Service Unavailable', 'HTTP 503'],
    ['HTTP 503 Service Unavailable', 'HTTP 503'],
    ['HTTP 5031', 'HTTP 5031'],
    ['FC_ERR_X2: y', 'FC_ERR_X2'],
    ['电'.repeat(50), '电'.repeat(40)],
    ['something else: with a colon', 'something else: with a colon'],
    ['x'.repeat(60), 'x'.repeat(40)],
    ['', ''],
  ];
  for (const [text, want] of cases)
    it(JSON.stringify(text), () => assert.equal(errorCode(text), want));
});

describe('hostOf', () => {
  const cases: [string, string][] = [
    ['http://a.test/p', 'a.test'],
    ['https://b.test:8443/x?y', 'b.test'],
    ['not a url', 'not a url'],
  ];
  for (const [url, want] of cases) it(url, () => assert.equal(hostOf(url), want));
});

const ok = (url: string, status = 200): FetchRecord => ({
  url,
  state: 'complete',
  status,
  error: null,
});
const fail = (url: string, error: string, status: number | null = null): FetchRecord => ({
  url,
  state: 'error',
  status,
  error,
});

describe('tallyFetches', () => {
  it('nothing: empty tables', () => {
    assert.deepEqual(tallyFetches([]), {
      fetches: 0,
      redirects: 0,
      byStatus: [],
      byError: [],
      retried: null,
      putBack: 0,
      failingHosts: [],
      slowHosts: [],
    });
  });

  it('ranks hosts by their median fetch time, slowest first; rows name the three slowest', () => {
    const t = (url: string, fetchMs: number): FetchRecord => ({
      url,
      state: 'complete',
      status: 200,
      error: null,
      fetchMs,
    });
    const s = tallyFetches([
      t('http://a.test/1', 10),
      t('http://a.test/2', 30),
      t('http://a.test/3', 1000),
      t('http://b.test/1', 400),
      t('http://c.test/1', 5),
      t('http://c.test/2', 7),
      { url: 'http://d.test/', state: 'error', status: null, error: 'FC_ERR_DNS: x' },
    ]);
    assert.deepEqual(s.slowHosts, [
      { host: 'b.test', timed: 1, medianMs: 400 },
      { host: 'a.test', timed: 3, medianMs: 30 },
      { host: 'c.test', timed: 2, medianMs: 6 },
    ]);
    const rows = Object.fromEntries(fetchStatsRows(s));
    assert.equal(
      rows['slowest hosts'],
      'b.test 400 ms, a.test 30 ms, c.test 6 ms (median per fetch)',
    );
  });

  it('counts by status (no response apart), by error, and the failing hosts', () => {
    const s = tallyFetches([
      ok('http://a.test/1'),
      ok('http://a.test/2'),
      { url: 'http://a.test/3', state: 'discard', status: 200, error: null },
      { url: 'http://a.test/old', state: 'redirect', status: 301, error: null },
      fail('http://a.test/4', 'HTTP 404', 404),
      fail('http://dead.test/1', 'FC_ERR_DNS: ENOTFOUND dead.test'),
      fail('http://dead.test/2', 'FC_ERR_DNS: ENOTFOUND dead.test'),
      fail('http://slow.test/1', 'FC_ERR_CONNECT_TIMEOUT: no connection within 10000 ms'),
      ok('http://slow.test/2'),
    ]);
    assert.equal(s.fetches, 8);
    assert.equal(s.redirects, 1);
    assert.deepEqual(s.byStatus, [
      { status: '200', count: 4 },
      { status: 'none', count: 3 },
      { status: '301', count: 1 },
      { status: '404', count: 1 },
    ]);
    assert.deepEqual(s.byError, [
      { code: 'FC_ERR_DNS', count: 2 },
      { code: 'FC_ERR_CONNECT_TIMEOUT', count: 1 },
      { code: 'HTTP 404', count: 1 },
    ]);
    assert.equal(s.retried, null);
    // Most failures first, then the higher share, then by name.
    assert.deepEqual(s.failingHosts, [
      { host: 'dead.test', fetches: 2, failures: 2, share: 1 },
      { host: 'slow.test', fetches: 2, failures: 1, share: 0.5 },
      { host: 'a.test', fetches: 4, failures: 1, share: 0.25 },
    ]);
  });

  it('counts later attempts and failed attempts put back, where records tell', () => {
    const s = tallyFetches([
      { ...fail('http://a.test/1', 'FC_ERR_NETWORK: reset'), attempt: 1, retryAt: 5000 },
      { ...ok('http://a.test/1'), attempt: 2, retryAt: null },
      { ...ok('http://a.test/2'), attempt: 1 },
    ]);
    assert.equal(s.retried, 1);
    assert.equal(s.putBack, 1);
  });

  it('adds one at a time as it adds them all', () => {
    const records = [ok('http://a.test/'), fail('http://b.test/', 'HTTP 500', 500)];
    const t = new FetchTally();
    for (const r of records) t.add(r);
    assert.deepEqual(t.result(), tallyFetches(records));
  });
});

describe('fetchStatsRows', () => {
  const empty: FetchStats = tallyFetches([]);
  const cases: [string, FetchStats, Parameters<typeof fetchStatsRows>[1], [string, string][]][] = [
    ['nothing at all', empty, {}, []],
    ['bytes alone', empty, { bytes: 2048 }, [['bytes', '2.00 KiB received']]],
    [
      'a run',
      tallyFetches([
        ok('http://a.test/1'),
        ok('http://a.test/2'),
        fail('http://dead.test/', 'FC_ERR_DNS: ENOTFOUND'),
      ]),
      { bytes: 4096, retries: 3, requeued: 2 },
      [
        ['by status', '200 2, no response 1'],
        ['by error', 'FC_ERR_DNS 1'],
        [
          'retries',
          '3 failed fetches put back to wait for another attempt, 2 failed URLs re-queued',
        ],
        ['bytes', '4.00 KiB received (2.00 KiB per page)'],
        ['failing hosts', 'dead.test 1 of 1 (100.0%)'],
      ],
    ],
    [
      'long lists cut, the rest counted',
      tallyFetches([200, 201, 202, 203, 204].map((status, i) => ok(`http://h${i}.test/`, status))),
      { top: 3 },
      [['by status', '200 1, 201 1, 202 1, … (2 more)']],
    ],
    [
      'at most three failing hosts',
      tallyFetches(['a', 'b', 'c', 'd'].map((h) => fail(`http://${h}.test/`, 'HTTP 500', 500))),
      {},
      [
        ['by status', '500 4'],
        ['by error', 'HTTP 500 4'],
        [
          'failing hosts',
          'a.test 1 of 1 (100.0%), b.test 1 of 1 (100.0%), c.test 1 of 1 (100.0%), … (1 more)',
        ],
      ],
    ],
    [
      'later attempts from the records',
      tallyFetches([{ ...ok('http://a.test/'), attempt: 3 }]),
      {},
      [
        ['by status', '200 1'],
        ['retries', '1 outcome of a second or later attempt'],
      ],
    ],
  ];
  for (const [what, stats, extra, want] of cases)
    it(what, () => assert.deepEqual(fetchStatsRows(stats, extra), want));
});
