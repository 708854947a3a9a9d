// The revisits section of `status`, read from a watched sample store.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { openStore, type Store } from '../store/index.js';
import {
  buildRevisitStore,
  REVISIT_TIMES,
  SAMPLE_PLAN,
  SAMPLE_WATCH,
} from './__fixtures__/revisits.js';
import { formatStatus } from './format-status.js';
import { gatherStatus } from './status.js';
import { buildSampleStore, T0 } from './testing.js';

const t = REVISIT_TIMES;

async function withStore<T>(dir: string, f: (s: Store) => Promise<T>): Promise<T> {
  const s = await openStore(dir, { readonly: true });
  try {
    return await f(s);
  } finally {
    await s.close();
  }
}

describe('gatherStatus: revisits', () => {
  let dir: string;
  before(async () => {
    dir = await buildRevisitStore();
  });

  it('counts what is due at the status time', async () => {
    const before = await withStore(dir, (s) => gatherStatus(s, { now: t.homeDue - 1 }));
    assert.equal(before.revisits?.due, 0);
    const at = await withStore(dir, (s) => gatherStatus(s, { now: t.homeDue }));
    assert.equal(at.revisits?.due, 1);
    assert.equal(at.revisits?.nextDueAt, t.homeDue);
  });

  it('starts the last hour with a watch that began within it, and measures against its budget', async () => {
    const watch = { ...SAMPLE_WATCH, startedAt: t.round3 - 1000 };
    const d = await withStore(dir, (s) => gatherStatus(s, { revisitMeta: { watch } }));
    // Round 3 only: two revisits over two seconds, twice the budget of 0.5/s.
    assert.deepEqual(d.revisits?.lastHour, {
      from: t.round3 - 1000,
      until: t.round3 + 1000,
      fetches: 0,
      revisits: 2,
      found: { unchanged: 0, changed: 0, gone: 1, failed: 1 },
      perSec: 1,
      ofBudget: 2,
    });
    assert.match(
      formatStatus(d),
      /^ {2}spent +1\/s \(200\.0% of the budget\) over the last hour: 0 fetches \+ 2 revisits, .* \(2\.0s\)$/m,
    );
  });

  it('reads malformed watch and plan records as absent, keeping what is sound', async () => {
    const d = await withStore(dir, (s) =>
      gatherStatus(s, {
        revisitMeta: {
          watch: { budget: { requests: 0, perMs: 1000 }, startedAt: 'yesterday' },
          plan: {
            ...SAMPLE_PLAN,
            rates: { '0.1–1': 2, bad: 'many' },
            next: [{ url: 'http://a.test/', dueAt: 'soon', rate: 1 }, SAMPLE_PLAN.next[0]],
          },
        },
      }),
    );
    assert.equal(d.revisits?.budget, null);
    assert.equal(d.revisits?.watch, null);
    assert.deepEqual(d.revisits?.plan?.rates, { '0.1–1': 2 });
    assert.deepEqual(d.revisits?.plan?.next, SAMPLE_PLAN.next);
    const noPlan = await withStore(dir, (s) =>
      gatherStatus(s, { revisitMeta: { plan: { at: T0 } } }),
    );
    assert.equal(noPlan.revisits?.plan, null);
  });

  it('gives no revisits for a store that has none and no watch', async () => {
    const plain = await buildSampleStore();
    const d = await withStore(plain, (s) =>
      gatherStatus(s, { revisitMeta: { plan: SAMPLE_PLAN } }),
    );
    assert.equal('revisits' in d, false);
    assert.doesNotMatch(formatStatus(d), /Revisits/);
  });
});
