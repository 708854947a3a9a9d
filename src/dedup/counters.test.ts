import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BitCounters } from './counters.js';

function naiveCounts(halves: Int32Array, n: number): number[] {
  const counts = new Array<number>(64).fill(0);
  for (let i = 0; i < n; i++) {
    for (let b = 0; b < 32; b++) {
      counts[b] = (counts[b] ?? 0) + (((halves[2 * i] as number) >>> b) & 1);
      counts[32 + b] = (counts[32 + b] ?? 0) + (((halves[2 * i + 1] as number) >>> b) & 1);
    }
  }
  return counts;
}

test('bit-sliced counts equal naive per-bit counts, in batches of any size', () => {
  let s = 12345;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) | 0;
    return s;
  };
  for (const batches of [[0], [1], [15], [16], [17], [3, 16, 40, 1, 0, 33], [1000, 999]]) {
    const counters = new BitCounters(2);
    const all: number[] = [];
    let total = 0;
    for (const n of batches) {
      const halves = new Int32Array(2 * n);
      for (let i = 0; i < 2 * n; i++) halves[i] = next();
      counters.add(1, halves, n);
      all.push(...halves);
      total += n;
    }
    const counts = new Float64Array(64);
    counters.countsInto(1, total, counts);
    assert.deepEqual([...counts], naiveCounts(Int32Array.from(all), total), String(batches));
    const other = new Float64Array(64);
    counters.countsInto(0, 0, other);
    assert.ok(
      other.every((c) => c === 0),
      'groups are independent',
    );
  }
});
