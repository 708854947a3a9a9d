import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  backoffMs,
  errorRetryDelay,
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
  statusRetryDelay,
} from './retry.js';

const policy: RetryPolicy = {
  retries: 2,
  retryBaseDelayMs: 1000,
  retryMaxDelayMs: 3000,
  maxRetryAfterMs: 60_000,
};
const NOW = Date.UTC(2024, 0, 1, 12, 0, 0);

test('parseRetryAfter: seconds, HTTP dates, junk', () => {
  const cases: Array<[string | undefined, number | undefined]> = [
    ['0', 0],
    ['1', 1000],
    [' 120 ', 120_000],
    ['Mon, 01 Jan 2024 12:00:30 GMT', 30_000],
    ['Mon, 01 Jan 2024 11:00:00 GMT', 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ];
  for (const [v, expected] of cases) assert.equal(parseRetryAfter(v, NOW), expected, String(v));
});

test('backoff doubles from the base, is capped, and jitters within [e/2, e]', () => {
  const table: Array<[number, number, number]> = [
    [1, 500, 1000],
    [2, 1000, 2000],
    [3, 1500, 3000],
    [4, 1500, 3000],
  ];
  for (const [n, lo, hi] of table) {
    assert.equal(
      backoffMs(n, policy, () => 0),
      lo,
      `n=${n} low`,
    );
    assert.equal(
      backoffMs(n, policy, () => 0.999999),
      hi,
      `n=${n} high`,
    );
  }
});

test('which statuses are retried', () => {
  for (const s of [429, 500, 502, 503, 504, 599]) assert.equal(isRetryableStatus(s), true, `${s}`);
  for (const s of [200, 301, 304, 400, 404, 410, 428])
    assert.equal(isRetryableStatus(s), false, `${s}`);
});

test('statusRetryDelay: Retry-After wins, beyond maxRetryAfterMs gives up, retries run out', () => {
  const r = () => 0;
  assert.equal(statusRetryDelay(503, undefined, 1, policy, NOW, r), 500);
  assert.equal(statusRetryDelay(503, '7', 1, policy, NOW, r), 7000);
  assert.equal(statusRetryDelay(429, 'Mon, 01 Jan 2024 12:00:02 GMT', 2, policy, NOW, r), 2000);
  assert.equal(statusRetryDelay(429, '61', 1, policy, NOW, r), -1);
  assert.equal(statusRetryDelay(503, undefined, 3, policy, NOW, r), -1);
  assert.equal(statusRetryDelay(404, undefined, 1, policy, NOW, r), -1);
  assert.equal(statusRetryDelay(200, '1', 1, policy, NOW, r), -1);
});

test('errorRetryDelay: only retryable errors, only while retries last', () => {
  assert.equal(
    errorRetryDelay(true, 1, policy, () => 0),
    500,
  );
  assert.equal(
    errorRetryDelay(true, 2, policy, () => 0),
    1000,
  );
  assert.equal(
    errorRetryDelay(true, 3, policy, () => 0),
    -1,
  );
  assert.equal(
    errorRetryDelay(false, 1, policy, () => 0),
    -1,
  );
});
