import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyFailure } from '../fetch/index.js';
import { FailingWatch } from './failing.js';

const dns = (host: string) =>
  classifyFailure({
    error: `FC_ERR_DNS: http://${host}/: cannot resolve ${host} (ENOTFOUND)`,
    status: null,
  });
const refused = classifyFailure({
  error: 'FC_ERR_NETWORK: http://127.0.0.1:9/: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9',
  status: null,
});

describe('FailingWatch: the circuit breaker', () => {
  it('trips once the failures since the last success span the window and are enough', () => {
    const w = new FailingWatch(30_000);
    w.failed(dns('portal.test'), 0);
    w.failed(dns('portal.test'), 10_000);
    assert.equal(w.tripped(40_000), false, 'two failures are not enough');
    w.failed(dns('forum.test'), 20_000);
    assert.equal(w.tripped(29_999), false, 'not for the whole window yet');
    assert.equal(w.tripped(30_000), true);
    assert.equal(
      w.message('window'),
      'every fetch in the last 30 s failed: cannot resolve portal.test, forum.test — is a --resolve missing?',
    );
  });

  it('a success starts over; the commonest cause is named', () => {
    const w = new FailingWatch(1_000);
    for (let i = 0; i < 5; i++) w.failed(dns('a.test'), i);
    w.succeeded();
    assert.equal(w.tripped(10_000), false);
    assert.equal(w.nothingAnswered, false);
    w.failed(dns('a.test'), 20_000);
    w.failed(refused, 20_001);
    w.failed(refused, 20_002);
    assert.equal(w.tripped(21_000), true);
    assert.equal(
      w.message('window'),
      'every fetch in the last 1 s failed: connection refused by 127.0.0.1:9 — is the server running?',
    );
  });

  it('0 turns the breaker off; the run can still say that nothing answered', () => {
    const w = new FailingWatch(0);
    assert.equal(w.nothingAnswered, false);
    for (let i = 0; i < 10; i++) w.failed(refused, i * 100_000);
    assert.equal(w.tripped(10_000_000), false);
    assert.equal(w.nothingAnswered, true);
    assert.equal(
      w.message('run'),
      'every fetch of this run failed: connection refused by 127.0.0.1:9 — is the server running?',
    );
  });
});
