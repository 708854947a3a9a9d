import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { hammingDistance, type SimHash } from './fingerprint.js';
import { NearDuplicateIndex, type NearMatch } from './index-near.js';

/** Random uint32s (an LCG's low bits are poor: its output is mixed). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    let h = Math.imul(s ^ (s >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  };
}

/** `fp` with `n` distinct random bits flipped. */
function flip(fp: SimHash, n: number, r: () => number): SimHash {
  let { hi, lo } = fp;
  const bits = new Set<number>();
  while (bits.size < n) bits.add(r() % 64);
  for (const b of bits) {
    if (b < 32) lo ^= 1 << b;
    else hi ^= 1 << (b - 32);
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

/**
 * Random fingerprints in clusters: each base has relatives 0…10 bits away, so there
 * are matches at every distance around k; some fingerprints are stored twice.
 */
function corpus(seed: number, n: number): SimHash[] {
  const r = rng(seed);
  const out: SimHash[] = [];
  while (out.length < n) {
    const base = { hi: r(), lo: r() };
    out.push(base);
    for (let j = r() % 6; j > 0 && out.length < n; j--) out.push(flip(base, r() % 11, r));
    if (r() % 10 === 0 && out.length < n) out.push(base);
  }
  return out;
}

function bruteForce(stored: SimHash[], q: SimHash, k: number): NearMatch[] {
  const out: NearMatch[] = [];
  for (const [id, fp] of stored.entries()) {
    const d = hammingDistance(q, fp);
    if (d <= k) out.push({ id, distance: d });
  }
  return out.sort((a, b) => a.distance - b.distance || a.id - b.id);
}

test('finds every fingerprint within k and none beyond, as a brute-force scan does', () => {
  const stored = corpus(1, 6000);
  const r = rng(2);
  const queries = [
    ...Array.from({ length: 150 }, () => flip(stored[r() % stored.length] as SimHash, r() % 8, r)),
    ...Array.from({ length: 50 }, () => ({ hi: r(), lo: r() })),
  ];
  for (let k = 0; k <= 8; k++) {
    const index = new NearDuplicateIndex(k, 16); // small start: growth and rehashing run too
    for (const [id, fp] of stored.entries()) index.add(id, fp);
    assert.equal(index.size, stored.length);
    let matches = 0;
    for (const q of queries) {
      const expected = bruteForce(stored, q, k);
      assert.deepEqual(index.findAll(q), expected, `k=${k}`);
      assert.deepEqual(index.find(q), expected[0] ?? null, `k=${k}`);
      matches += expected.length;
    }
    assert.ok(matches > 10, `k=${k}: the queries have matches to find`);
  }
});

test('find: the nearest match, ties broken by the smallest id', () => {
  const a = { hi: 0x12345678, lo: 0x9abcdef0 };
  const index = new NearDuplicateIndex(3);
  index.add(50, flip(a, 2, rng(3)));
  index.add(40, flip(a, 2, rng(4)));
  index.add(30, flip(a, 3, rng(5)));
  index.add(90, { hi: ~a.hi >>> 0, lo: ~a.lo >>> 0 });
  const cases: Array<[string, SimHash, NearMatch | null]> = [
    ['two at distance 2: the smaller id', a, { id: 40, distance: 2 }],
    ['far from everything', { hi: 0x0f0f0f0f, lo: 0xf0f0f0f0 }, null],
    ['the complement', { hi: ~a.hi >>> 0, lo: ~a.lo >>> 0 }, { id: 90, distance: 0 }],
  ];
  for (const [name, q, expected] of cases) assert.deepEqual(index.find(q), expected, name);
  index.add(7, a);
  assert.deepEqual(index.find(a), { id: 7, distance: 0 }, 'an exact match wins');
});

test('an empty index finds nothing; maxDistance is validated', () => {
  assert.equal(new NearDuplicateIndex().find({ hi: 0, lo: 0 }), null);
  assert.equal(new NearDuplicateIndex().size, 0);
  for (const bad of [-1, 9, 2.5, Number.NaN]) {
    assert.throws(() => new NearDuplicateIndex(bad), InvalidOptionError, String(bad));
  }
});

test('memory stays lean: about 32 bytes per fingerprint at k = 3 with room to grow', () => {
  const index = new NearDuplicateIndex(3);
  const r = rng(9);
  for (let i = 0; i < 100_000; i++) index.add(i, { hi: r(), lo: r() });
  // 131,072 slots × (8 + 8 + 4·4) bytes + 4 tables × 65,536 heads × 4 bytes.
  assert.equal(index.byteLength, 131_072 * 32 + 4 * 65_536 * 4);
});
