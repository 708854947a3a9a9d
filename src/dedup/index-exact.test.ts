import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExactIndex } from './index-exact.js';

test('exact keys: the smallest id per key, any number of keys', () => {
  const index = new ExactIndex();
  const n = 20_000; // several doublings of the table
  for (let i = 0; i < n; i++) index.add(`key-${i}`, 1000 + i);
  index.add('key-7', 5); // a smaller id wins
  index.add('key-8', 99_999); // a larger one does not
  assert.equal(index.size, n);
  const cases: Array<[string, number | undefined]> = [
    ['key-0', 1000],
    ['key-7', 5],
    ['key-8', 1008],
    [`key-${n - 1}`, 1000 + n - 1],
    [`key-${n}`, undefined],
    ['', undefined],
    ['KEY-0', undefined], // keys are compared as given
  ];
  for (const [key, id] of cases) assert.equal(index.get(key), id, key);
  index.add('', 3);
  assert.equal(index.get(''), 3);
});
