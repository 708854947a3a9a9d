import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import type { FailureClass, FailureKind } from '../fetch/index.js';
import { parseRetryErrors, RETRY_DELAY_MAX_MS, type RetryRule, retryAt } from './retry.js';

const RULE: RetryRule = { maxAttempts: 3, backoffMs: 10_000, robotsWaitMs: 600_000 };
const T = 1_000_000;
const transient = (kind: FailureKind = 'http') => ({ class: 'transient' as FailureClass, kind });

describe('retryAt: when a failed attempt is tried again', () => {
  const cases: [string, Parameters<typeof retryAt>, number | null][] = [
    ['the first failure waits the back-off', [RULE, 0, transient(), T], T + 10_000],
    ['the second twice that', [RULE, 1, transient(), T], T + 20_000],
    ['the last attempt ends the URL', [RULE, 2, transient(), T], null],
    [
      'a permanent failure ends it at once',
      [RULE, 0, { class: 'permanent', kind: 'http' }, T],
      null,
    ],
    ['one attempt: no retry', [{ ...RULE, maxAttempts: 1 }, 0, transient(), T], null],
    ['Retry-After (seconds) when longer', [RULE, 0, transient(), T, '120'], T + 120_000],
    ['Retry-After when shorter: the back-off', [RULE, 0, transient(), T, '2'], T + 10_000],
    [
      'Retry-After as a date',
      [RULE, 0, transient(), T, new Date(T + 300_000).toUTCString()],
      T + 300_000,
    ],
    [
      'Retry-After beyond the cap: the cap',
      [RULE, 0, transient(), T, '99999'],
      T + RETRY_DELAY_MAX_MS,
    ],
    ['Retry-After unreadable: the back-off', [RULE, 0, transient(), T, 'soon'], T + 10_000],
    ['robots.txt unreadable: its wait', [RULE, 0, transient('robots-unreachable'), T], T + 600_000],
    [
      'a long back-off is capped',
      [{ ...RULE, maxAttempts: 50, backoffMs: 3_600_000 }, 5, transient(), T],
      T + RETRY_DELAY_MAX_MS,
    ],
    ['no back-off: at once', [{ ...RULE, backoffMs: 0 }, 0, transient(), T], T],
  ];
  for (const [name, args, want] of cases) it(name, () => assert.equal(retryAt(...args), want));
});

describe('parseRetryErrors: --retry-errors WHICH', () => {
  const cases: [string, unknown][] = [
    ['all', {}],
    ['ALL', {}],
    ['404', { statuses: [404] }],
    ['5xx', { statusClasses: [5] }],
    ['FC_ERR_DNS', { codes: ['FC_ERR_DNS'] }],
    ['fc_err_dns, 404,4xx', { codes: ['FC_ERR_DNS'], statuses: [404], statusClasses: [4] }],
    [
      'transient',
      {
        codes: [
          'FC_ERR_DNS',
          'FC_ERR_NETWORK',
          'FC_ERR_CONNECT_TIMEOUT',
          'FC_ERR_HEADERS_TIMEOUT',
          'FC_ERR_TOTAL_TIMEOUT',
          'FC_ERR_HOST_UNREACHABLE',
          'FC_ERR_ABORTED',
        ],
        statuses: [429],
        statusClasses: [5],
      },
    ],
  ];
  for (const [which, want] of cases) {
    it(which, () => assert.deepEqual(parseRetryErrors(which), want));
  }
  const bad: [string, RegExp][] = [
    ['', /give all, transient, or a list/],
    [' , ', /give all/],
    ['all,404', /"all" goes alone/],
    ['FC_ERR_NOPE', /"FC_ERR_NOPE" is not an error code/],
    ['600', /"600" is not/],
    ['6xx', /"6xx" is not/],
    ['dns', /"dns" is not/],
  ];
  for (const [which, re] of bad) {
    it(`refuses ${JSON.stringify(which)}`, () =>
      assert.throws(
        () => parseRetryErrors(which),
        (e: unknown) =>
          e instanceof InvalidOptionError && /--retry-errors/.test(e.message) && re.test(e.message),
      ));
  }
});
