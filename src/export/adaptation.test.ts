// Threshold and topic-vector histories in `status`: read from the store's meta,
// malformed values skipped, shown in the table and in --json.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { META_THRESHOLD, META_TOPIC } from '../relevance/history.js';
import { createMemoryStore } from '../store/index.js';
import { readThresholdHistory, readTopicHistory } from './adaptation.js';
import { formatStatus } from './format-status.js';
import { gatherStatus } from './status.js';
import { SAMPLE_THRESHOLD, SAMPLE_TOPIC_HISTORY } from './testing.js';

describe('status with a threshold and topic history', () => {
  it('gives the threshold kind, values, changes and the last few', async () => {
    const s = createMemoryStore();
    await s.setMeta(META_THRESHOLD, SAMPLE_THRESHOLD);
    await s.setMeta(META_TOPIC, SAMPLE_TOPIC_HISTORY);
    const d = await gatherStatus(s);
    assert.deepEqual(d.threshold, {
      kind: 'iterative',
      initial: 0.05,
      value: 0.1834,
      frozen: true,
      changes: 7,
      last: SAMPLE_THRESHOLD.changes.slice(2),
    });
    assert.deepEqual(d.topicVector, {
      changes: 2,
      lastDrift: 0.04213,
      last: SAMPLE_TOPIC_HISTORY.changes[1],
      keywords: 4,
    });
    const text = formatStatus(d);
    assert.match(text, /^Threshold\s+iterative 0\.05 → 0\.1834, frozen \(7 changes\)$/m);
    assert.match(text, /^ {2}last 5 changes$/m);
    assert.match(text, /^ {4}rule\s+fetched\s+from\s+to\s+at$/m);
    assert.match(text, /^ {4}iterative\s+300\s+0\.15\s+0\.17\s+2024-05-01T12:00:03Z$/m);
    assert.match(text, /^ {4}converged\s+600\s+0\.1834\s+0\.1834\s+2024-05-01T12:00:07Z$/m);
    assert.doesNotMatch(text, /^ {4}iterative\s+200\s/m, 'only the last five');
    assert.match(
      text,
      /^Topic vector\s+2 changes; last at 1,000 fetched: drift 0\.042 \(limited\), \+1 \/ −0 keywords \(4 keywords now\)$/m,
    );
  });

  it('a fixed threshold without changes, and no topic history', async () => {
    const s = createMemoryStore();
    await s.setMeta(META_THRESHOLD, {
      kind: 'fixed',
      initial: 0.1,
      value: 0.1,
      frozen: false,
      changes: [],
    });
    const d = await gatherStatus(s);
    assert.equal(d.threshold?.changes, 0);
    assert.deepEqual(d.threshold?.last, []);
    assert.equal(d.topicVector, null);
    const text = formatStatus(d);
    assert.match(text, /^Threshold\s+fixed 0\.1 \(0 changes\)$/m);
    assert.doesNotMatch(text, /last change|Topic vector/);
  });

  it('without histories, status shows neither', async () => {
    const d = await gatherStatus(createMemoryStore());
    assert.equal(d.threshold, null);
    assert.equal(d.topicVector, null);
    assert.doesNotMatch(formatStatus(d), /Threshold|Topic vector/);
  });
});

describe('reading the histories defensively', () => {
  it('malformed values are ignored, malformed entries skipped', () => {
    for (const bad of [null, 3, 'x', [], { kind: 'iterative' }, { initial: 0.1, value: '0.2' }]) {
      assert.equal(readThresholdHistory(bad), null, JSON.stringify(bad));
    }
    const h = readThresholdHistory({
      kind: 'weird',
      initial: 0.1,
      value: 0.2,
      changes: [{ fetched: 5, from: 0.1, to: 0.2, rule: 'alpha', at: 9 }, { fetched: 'x' }, null],
    });
    assert.deepEqual(h, {
      kind: 'fixed',
      initial: 0.1,
      value: 0.2,
      frozen: false,
      changes: [{ at: 9, fetched: 5, from: 0.1, to: 0.2, rule: 'alpha' }],
    });
    assert.equal(readTopicHistory(null), null);
    assert.deepEqual(
      readTopicHistory({
        changes: [
          { fetched: 1, drift: 0.5, top: [['a', 1], ['b']], added: ['x', 2] },
          { drift: 1 },
        ],
        keywords: { a: 1, b: 'heavy' },
      }),
      {
        changes: [
          {
            at: 0,
            fetched: 1,
            drift: 0.5,
            limited: false,
            added: ['x'],
            removed: [],
            top: [['a', 1]],
          },
        ],
        keywords: { a: 1 },
      },
    );
  });
});
