import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HeadersTimeoutError, NetworkError, TotalTimeoutError } from '../errors/index.js';
import { FetchBudget, urlTimeoutError } from './budget.js';

const policy = { retries: 3, retryBaseDelayMs: 100, retryMaxDelayMs: 1000, maxRetryAfterMs: 0 };
const top = () => 0.999_999; // the longest backoff: e
const U = 'http://a.test/x';

describe('FetchBudget: the clock', () => {
  test('runs from its start, stops while paused, and runs on after', () => {
    const b = new FetchBudget(1000, 0);
    assert.equal(b.remainingMs(100), 900);
    b.pause(100);
    assert.equal(b.remainingMs(5000), 900);
    b.pause(6000); // a second pause changes nothing
    b.resume(6000);
    assert.equal(b.remainingMs(6300), 600);
    b.resume(7000); // nor does a second resume
    assert.equal(b.remainingMs(7300), -400);
  });

  test('paused() stops the clock for the wait it wraps, even when the wait fails', async () => {
    const b = new FetchBudget(1000);
    const before = b.remainingMs();
    await assert.rejects(
      b.paused(async () => {
        await new Promise((r) => setTimeout(r, 60));
        throw new Error('the wait failed');
      }),
      /the wait failed/,
    );
    assert.ok(b.remainingMs() > before - 40, `${b.remainingMs()} left of ${before}`);
  });
});

describe('FetchBudget.retryAfterError', () => {
  test('a body that timed out is retried once, whatever the retries', () => {
    const b = new FetchBudget(60_000);
    const first = new TotalTimeoutError(`${U}: no complete response within totalTimeoutMs=300`);
    assert.equal(b.retryAfterError(first, 1, policy, top), 100);
    const second = new TotalTimeoutError(`${U}: no complete response within totalTimeoutMs=300`);
    assert.equal(b.retryAfterError(second, 2, policy, top), -1);
    assert.match(second.message, /\(after 2 attempts; a body that timed out is retried once\)$/);
  });

  test('other retryable errors use every retry', () => {
    const b = new FetchBudget(60_000);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const e = new HeadersTimeoutError(`${U}: no response headers`);
      assert.equal(b.retryAfterError(e, attempt, policy, top), 100 * 2 ** (attempt - 1));
    }
    const last = new NetworkError(`${U}: ECONNRESET`);
    assert.equal(b.retryAfterError(last, 4, policy, top), -1);
    assert.match(last.message, /\(after 4 attempts\)$/);
  });

  test('no retry whose wait would use up the time left; the message says why', () => {
    const b = new FetchBudget(150);
    const e = new NetworkError(`${U}: ECONNRESET`);
    assert.equal(b.retryAfterError(e, 2, policy, top), -1); // a 200 ms wait
    assert.match(
      e.message,
      /\(after 2 attempts; no time left for a retry within urlTimeoutMs=150\)$/,
    );
  });

  test('a permanent error on the first try keeps its message', () => {
    const b = new FetchBudget(60_000);
    const e = new NetworkError(`${U}: bad gzip`, { retryable: false });
    assert.equal(b.retryAfterError(e, 1, policy, top), -1);
    assert.equal(e.message, `${U}: bad gzip`);
  });

  test('when the time is up, the error (which says so) is thrown as it is', () => {
    const b = new FetchBudget(100, Date.now() - 500);
    const e = urlTimeoutError(U, 100, 3);
    assert.equal(b.retryAfterError(e, 3, policy, top), -1);
    assert.equal(e.code, 'FC_ERR_TOTAL_TIMEOUT');
    assert.equal(e.url, U);
    assert.match(e.message, /^http:\/\/a\.test\/x: no complete response within urlTimeoutMs=100/);
    assert.match(e.message, /\(3 attempts,/);
    assert.doesNotMatch(e.message, /after/);
  });
});
