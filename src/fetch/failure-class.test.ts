import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyFailure, describeFailure, type FailureInput } from './failure-class.js';

const U = 'http://portal.test:8080/a';

describe('classifyFailure', () => {
  const cases: [name: string, input: FailureInput, want: [string, string, string, string]][] = [
    [
      'DNS failure',
      { error: `FC_ERR_DNS: ${U}: cannot resolve portal.test (ENOTFOUND)`, status: null, url: U },
      ['transient', 'dns', 'FC_ERR_DNS', 'portal.test'],
    ],
    [
      'connection refused',
      {
        error: 'FC_ERR_NETWORK: http://127.0.0.1:9/: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9',
        status: null,
        url: 'http://127.0.0.1:9/',
      },
      ['transient', 'refused', 'FC_ERR_NETWORK', '127.0.0.1:9'],
    ],
    [
      'connection reset',
      { error: `FC_ERR_NETWORK: ${U}: ECONNRESET read ECONNRESET`, status: null, url: U },
      ['transient', 'network', 'FC_ERR_NETWORK', 'portal.test:8080'],
    ],
    [
      'connect timeout',
      { error: `FC_ERR_CONNECT_TIMEOUT: ${U}: no connection`, status: null, url: U },
      ['transient', 'connect-timeout', 'FC_ERR_CONNECT_TIMEOUT', 'portal.test:8080'],
    ],
    [
      'headers timeout',
      { error: `FC_ERR_HEADERS_TIMEOUT: ${U}: no response headers`, status: null, url: U },
      ['transient', 'timeout', 'FC_ERR_HEADERS_TIMEOUT', 'portal.test:8080'],
    ],
    [
      'total timeout',
      { error: `FC_ERR_TOTAL_TIMEOUT: ${U}: the body did not finish`, status: null, url: U },
      ['transient', 'timeout', 'FC_ERR_TOTAL_TIMEOUT', 'portal.test:8080'],
    ],
    [
      'a host given up',
      {
        error: 'FC_ERR_HOST_UNREACHABLE: forum.test unreachable for 3 s, not sent (last error: x)',
        status: null,
        url: U,
      },
      ['transient', 'unreachable', 'FC_ERR_HOST_UNREACHABLE', 'forum.test'],
    ],
    [
      'robots.txt unreachable',
      {
        error: `FC_ERR_ROBOTS_DISALLOWED: ${U} disallows x: robots.txt is unreachable (HTTP 503); retried after …`,
        status: null,
        url: U,
      },
      ['transient', 'robots-unreachable', 'FC_ERR_ROBOTS_DISALLOWED', 'portal.test:8080'],
    ],
    [
      'HTTP 503',
      { error: 'HTTP 503', status: 503, url: U },
      ['transient', 'http', 'HTTP 503', 'portal.test:8080'],
    ],
    ['HTTP 500', { error: 'HTTP 500', status: 500 }, ['transient', 'http', 'HTTP 500', '']],
    ['HTTP 429', { error: 'HTTP 429', status: 429 }, ['transient', 'http', 'HTTP 429', '']],
    ['a status alone', { error: null, status: 502 }, ['transient', 'http', 'HTTP 502', '']],
    ['HTTP 404', { error: 'HTTP 404', status: 404 }, ['permanent', 'http', 'HTTP 404', '']],
    ['HTTP 410', { error: 'HTTP 410', status: 410 }, ['permanent', 'http', 'HTTP 410', '']],
    ['HTTP 403', { error: 'HTTP 403', status: 403 }, ['permanent', 'http', 'HTTP 403', '']],
    [
      'a robots.txt rule',
      {
        error: `FC_ERR_ROBOTS_DISALLOWED: ${U} disallows x: line 2 "Disallow: /" of the group`,
        status: null,
      },
      ['permanent', 'other', 'FC_ERR_ROBOTS_DISALLOWED', ''],
    ],
    [
      'a refused address',
      { error: 'FC_ERR_BLOCKED_ADDRESS: 10.0.0.1 is private', status: null },
      ['permanent', 'other', 'FC_ERR_BLOCKED_ADDRESS', ''],
    ],
    [
      'out of scope',
      { error: 'FC_ERR_OUT_OF_SCOPE: redirected out', status: null },
      ['permanent', 'other', 'FC_ERR_OUT_OF_SCOPE', ''],
    ],
    [
      'a bad URL',
      { error: 'FC_ERR_INVALID_URL: not an http(s) URL', status: null },
      ['permanent', 'other', 'FC_ERR_INVALID_URL', ''],
    ],
    [
      'a redirect loop',
      { error: 'FC_ERR_REDIRECT_LOOP: a → b → a', status: 301 },
      ['permanent', 'other', 'FC_ERR_REDIRECT_LOOP', ''],
    ],
    [
      'an error without a code, with a status',
      { error: 'the page could not be judged', status: 200 },
      ['permanent', 'other', 'the page could not be judged', ''],
    ],
  ];
  for (const [name, input, [cls, kind, code, where]] of cases) {
    it(name, () => {
      const got = classifyFailure(input);
      assert.deepEqual([got.class, got.kind, got.code, got.where], [cls, kind, code, where]);
    });
  }
});

describe('describeFailure', () => {
  const cases: [Parameters<typeof describeFailure>, string][] = [
    [
      ['dns', 'FC_ERR_DNS', ['portal.test']],
      'cannot resolve portal.test — is a --resolve missing?',
    ],
    [
      ['refused', 'FC_ERR_NETWORK', ['127.0.0.1:9']],
      'connection refused by 127.0.0.1:9 — is the server running?',
    ],
    [['http', 'HTTP 503', ['a.test', 'b.test']], 'a.test, b.test answered HTTP 503'],
    [
      ['dns', 'FC_ERR_DNS', ['a.test', 'b.test', 'c.test', 'd.test', 'e.test']],
      'cannot resolve a.test, b.test, c.test and 2 more — is a --resolve missing?',
    ],
    [
      ['timeout', 'FC_ERR_HEADERS_TIMEOUT', []],
      'the hosts did not answer in time (FC_ERR_HEADERS_TIMEOUT) — is the server overloaded?',
    ],
  ];
  for (const [args, want] of cases) {
    it(want, () => assert.equal(describeFailure(...args), want));
  }
});
