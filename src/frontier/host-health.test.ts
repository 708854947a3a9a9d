import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HostHealth } from './host-health.js';

test('an unreachable host is parked, probed after a doubling back-off, and dead past the limit', () => {
  const h = new HostHealth({ retryMs: 100, deadAfterMs: 1000, timeoutsToPark: 3 });
  assert.equal(h.verdict('a', 0), 'send');
  assert.equal(h.failed('a', 'unreachable', 'FC_ERR_DNS: x', 0), 'park');
  // [time, verdict]: held until the probe is due; one probe at a time.
  const steps: [number, string][] = [
    [50, 'park'],
    [100, 'probe'],
    [101, 'park'],
  ];
  for (const [t, v] of steps) assert.equal(h.verdict('a', t), v, `t=${t}`);
  assert.equal(h.failed('a', 'unreachable', 'again', 120), 'park'); // back-off 200
  assert.equal(h.verdict('a', 300), 'park');
  assert.equal(h.nextProbeAt(), 320);
  assert.equal(h.verdict('a', 320), 'probe');
  assert.equal(h.failed('a', 'unreachable', 'again', 330), 'park'); // back-off 400 → 730
  assert.equal(h.verdict('a', 730), 'probe');
  assert.equal(h.failed('a', 'unreachable', 'again', 740), 'park'); // next: capped at 1000
  assert.equal(h.nextProbeAt(), 1000);
  assert.equal(h.verdict('a', 1000), 'probe');
  assert.equal(h.failed('a', 'unreachable', 'last', 1005), 'dead');
  assert.equal(h.verdict('a', 5000), 'dead');
  assert.equal(h.reason('a'), 'last');
  assert.deepEqual(h.counts(), { parked: 0, dead: 1 });
});

test('a response makes a parked host healthy; timeouts park only in a row', () => {
  const h = new HostHealth({ retryMs: 100, deadAfterMs: 1000, timeoutsToPark: 3 });
  assert.equal(h.failed('b', 'timeout', 't1', 0), 'fail');
  assert.equal(h.failed('b', 'timeout', 't2', 1), 'fail');
  assert.equal(h.failed('b', 'timeout', 't3', 2), 'park');
  assert.equal(h.verdict('b', 50), 'park');
  h.succeeded('b');
  assert.equal(h.verdict('b', 51), 'send');
  assert.ok(h.answered('b'));
  assert.equal(h.failed('c', 'none', 'HTTP-level', 0), 'fail');
  assert.equal(h.verdict('c', 0), 'send');
});

test('deadAfterMs 0: dead at the first failure; giveUp ends a parked host at once', () => {
  const h = new HostHealth({ retryMs: 100, deadAfterMs: 0, timeoutsToPark: 3 });
  assert.equal(h.failed('d', 'unreachable', 'x', 0), 'dead');
  const g = new HostHealth({ retryMs: 100, deadAfterMs: 1000, timeoutsToPark: 3 });
  assert.equal(g.failed('e', 'unreachable', 'x', 0), 'park');
  g.giveUp('e');
  assert.equal(g.verdict('e', 1), 'dead');
});
