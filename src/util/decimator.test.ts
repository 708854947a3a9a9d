import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimator } from './decimator.js';

describe('Decimator', () => {
  const run = (max: number, n: number) => {
    const d = new Decimator<number>(max);
    for (let i = 0; i < n; i++) d.push(i);
    return d.points();
  };
  it('keeps everything up to max', () => assert.deepEqual(run(4, 4), [0, 1, 2, 3]));
  it('halves at max + 1 and doubles the stride', () => assert.deepEqual(run(4, 5), [0, 2, 4]));
  it('always ends with the last item', () => {
    // stride 1: 0..4 → [0,2,4] stride 2; 6 → [0,2,4,6]; 8 → [0,4,8] stride 4; + last 9
    assert.deepEqual(run(4, 10), [0, 4, 8, 9]);
  });
  it('does not repeat a last item that was kept', () => assert.deepEqual(run(4, 9), [0, 4, 8]));
  it('nothing in, nothing out', () => assert.deepEqual(run(4, 0), []));
  it('one item', () => assert.deepEqual(run(4, 1), [0]));
  it('stays within (max/2, max + 1] for long streams, evenly spaced', () => {
    const pts = run(500, 123_457);
    assert.ok(pts.length > 250 && pts.length <= 501, `${pts.length} points`);
    assert.equal(pts[0], 0);
    assert.equal(pts.at(-1), 123_456);
    const step = (pts[1] as number) - (pts[0] as number);
    for (let i = 1; i < pts.length - 1; i++)
      assert.equal((pts[i] as number) - (pts[i - 1] as number), step);
  });
});
