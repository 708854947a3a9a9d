// The request budget: parsing `N/unit`, the token bucket that no window exceeds, the
// revisits' paced share and the credit it keeps after a lull, and a budget shared with
// other processes (its starts reserved one ahead, extra requests charged to it).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBudget, perDay, REVISIT_CREDIT, RequestBudget } from './budget.js';

describe('parseBudget', () => {
  const table: [string, number, number][] = [
    ['30/min', 30, 60_000],
    ['2/s', 2, 1_000],
    ['1000/hour', 1000, 3_600_000],
    ['5000/day', 5000, 86_400_000],
    [' 0.5 / seconds ', 0.5, 1_000],
    ['10/H', 10, 3_600_000],
  ];
  for (const [text, requests, perMs] of table) {
    it(text, () => assert.deepEqual(parseBudget(text), { requests, perMs }));
  }

  it('refuses garbage and a budget of nothing, naming the flag', () => {
    for (const bad of ['', 'fast', '30', '30/fortnight', '-1/s', '1/0s']) {
      assert.throws(() => parseBudget(bad, '--budget'), {
        name: 'InvalidOptionError',
        message: /^--budget: expected requests per unit/,
      });
    }
    assert.throws(() => parseBudget('0/min'), {
      name: 'InvalidOptionError',
      message: /--budget: a budget of 0 requests allows nothing/,
    });
  });

  it('counts requests per day', () => assert.equal(perDay(parseBudget('30/min')), 43_200));
});

/** A budget on a clock the test moves. */
function clocked(text: string) {
  let t = 1_000_000;
  const b = new RequestBudget(parseBudget(text), () => t);
  return {
    b,
    at: (ms: number) => {
      t = ms;
    },
    now: () => t,
  };
}

describe('RequestBudget', () => {
  it('starts at most one request per interval, whoever takes it', () => {
    const { b, at, now } = clocked('10/s'); // one per 100 ms
    const started: number[] = [];
    b.setRevisitRate(perDay(parseBudget('5/s')));
    const end = now() + 2_000;
    for (let ms = now(); ms < end; ms += 7) {
      at(ms);
      if (b.revisitReady()) {
        b.takeRevisit();
        started.push(ms);
      } else if (b.discovery.ready()) {
        b.discovery.take();
        started.push(ms);
      }
    }
    for (let i = 1; i < started.length; i++) assert.ok(started[i]! - started[i - 1]! >= 100);
    assert.ok(b.taken.revisit >= 9 && b.taken.revisit <= 11, `revisits ${b.taken.revisit}`);
    assert.equal(b.taken.revisit + b.taken.discovery, started.length);
  });

  it('lets waiting revisits go first, up to their share', () => {
    const { b, at, now } = clocked('10/s');
    b.setRevisitRate(perDay(parseBudget('10/s')));
    b.revisitsWaiting = 3;
    assert.equal(b.discovery.ready(), false);
    b.takeRevisit();
    at(now() + 100);
    b.revisitsWaiting = 0;
    assert.equal(b.discovery.ready(), true);
  });

  it('after a lull, revisits catch up on at most REVISIT_CREDIT of their share', () => {
    const { b, at, now } = clocked('1000/s'); // the bucket is not the limit
    b.setRevisitRate(perDay(parseBudget('1/s')));
    b.takeRevisit();
    at(now() + 3_600_000); // an hour with nothing due
    let burst = 0;
    const end = now() + 1_000;
    for (let ms = now(); ms < end; ms += 1) {
      at(ms);
      if (b.revisitReady()) {
        b.takeRevisit();
        burst++;
      }
    }
    // 20 seconds' worth of credit, plus the one second that passed.
    assert.ok(burst >= REVISIT_CREDIT && burst <= REVISIT_CREDIT + 2, `burst ${burst}`);
  });

  it('pushes the next start back by the extra requests a fetch made', () => {
    const { b } = clocked('10/s');
    b.discovery.take();
    const next = b.discovery.nextAt();
    b.charge(3);
    assert.equal(b.discovery.nextAt(), next + 300);
    assert.equal(b.taken.extra, 3);
  });
});

describe('RequestBudget shared with other processes', () => {
  /** A budget of 10/s on a test clock, over a shared budget whose answers the test gives. */
  function sharedClocked() {
    let t = 1_000_000;
    const asks: { count: number; answer: (waitMs: number) => void; fail: (e: Error) => void }[] =
      [];
    const warnings: string[] = [];
    const b = new RequestBudget(parseBudget('10/s'), () => t, {
      shared: (count, intervalMs) => {
        assert.equal(intervalMs, 100);
        return new Promise<number>((resolve, reject) => {
          asks.push({ count, answer: resolve, fail: reject });
        });
      },
      warn: (m) => warnings.push(m),
    });
    return {
      b,
      asks,
      warnings,
      at: (ms: number) => {
        t = ms;
      },
    };
  }
  const settle = () => new Promise((r) => setImmediate(r));

  it('a request starts only at the start reserved for it, and the next is reserved when it is taken', async () => {
    const { b, asks, at } = sharedClocked();
    // One start is reserved at once, ahead of need; none more while it is on its way.
    assert.equal(asks.length, 1);
    assert.equal(b.discovery.ready(), false);
    assert.equal(asks.length, 1);
    // Until its answer, the gate looks again shortly.
    assert.ok(b.discovery.nextAt() > 1_000_000);
    // Other processes reserved the next 250 ms.
    asks[0]?.answer(250);
    await settle();
    assert.equal(b.discovery.ready(), false);
    assert.equal(b.discovery.nextAt(), 1_000_250);
    at(1_000_250);
    assert.equal(b.discovery.ready(), true);
    b.discovery.take();
    assert.equal(asks.length, 2);
    asks[1]?.answer(0);
    await settle();
    // Its own budget still holds: one per 100 ms.
    at(1_000_300);
    assert.equal(b.discovery.ready(), false);
    at(1_000_350);
    assert.equal(b.discovery.ready(), true);
  });

  it('extra requests are taken from the shared budget too', async () => {
    const { b, asks } = sharedClocked();
    b.charge(3);
    assert.deepEqual(
      asks.map((a) => a.count),
      [1, 3],
    );
  });

  it('a shared budget that fails is warned of once; the process goes by its own meanwhile', async () => {
    const { b, asks, warnings, at } = sharedClocked();
    asks[0]?.fail(new Error('connection refused'));
    await settle();
    assert.equal(b.discovery.ready(), true);
    b.discovery.take();
    asks[1]?.fail(new Error('connection refused'));
    await settle();
    at(1_000_100);
    assert.equal(b.discovery.ready(), true);
    assert.deepEqual(warnings, [
      "shared request budget: connection refused (going by this process's budget alone meanwhile)",
    ]);
  });
});
