import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hammingDistance, parseSimhash, popcount32, simhashHex } from './fingerprint.js';

test('popcount32 counts set bits of any 32-bit value', () => {
  const cases: Array<[number, number]> = [
    [0, 0],
    [1, 1],
    [0xffffffff, 32],
    [-1, 32],
    [0x80000000, 1],
    [0x55555555, 16],
    [0xf0f0f00f, 16],
  ];
  for (const [x, n] of cases) assert.equal(popcount32(x), n, x.toString(16));
});

test('hammingDistance counts differing bits across both halves', () => {
  const cases: Array<[[number, number], [number, number], number]> = [
    [[0, 0], [0, 0], 0],
    [[0, 0], [0xffffffff, 0xffffffff], 64],
    [[0x80000000, 1], [0, 0], 2],
    [[0x12345678, 0x9abcdef0], [0x12345678, 0x9abcdef1], 1],
  ];
  for (const [[hi, lo], [hi2, lo2], d] of cases) {
    assert.equal(hammingDistance({ hi, lo }, { hi: hi2, lo: lo2 }), d);
  }
});

test('simhashHex writes 16 lower-case digits, high half first; parseSimhash reads them back', () => {
  const cases: Array<[number, number, string]> = [
    [0, 0, '0000000000000000'],
    [0x01234567, 0x89abcdef, '0123456789abcdef'],
    [0xffffffff, 0x00000001, 'ffffffff00000001'],
  ];
  for (const [hi, lo, hex] of cases) {
    assert.equal(simhashHex({ hi, lo }), hex);
    assert.deepEqual(parseSimhash(hex), { hi, lo });
    assert.deepEqual(parseSimhash(hex.toUpperCase()), { hi, lo });
  }
});

test('parseSimhash rejects anything but 16 hex digits', () => {
  for (const bad of ['', '0123', '0123456789abcdeg', '0123456789abcdef0', ' 123456789abcdef']) {
    assert.throws(() => parseSimhash(bad), RangeError, bad);
  }
});
