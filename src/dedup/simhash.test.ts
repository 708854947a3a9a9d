import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { hammingDistance } from './fingerprint.js';
import { createFingerprinter, simhash } from './simhash.js';
import { article } from './testing.js';

const fp = createFingerprinter();

/** `n` distinct letter-only words: aa, ab, … */
function words(n: number, offset = 0): string {
  const out: string[] = [];
  for (let i = offset; i < offset + n; i++) {
    out.push(
      String.fromCharCode(97 + (Math.floor(i / 26) % 26), 97 + (i % 26), 97 + Math.floor(i / 676)),
    );
  }
  return out.join(' ');
}

const longText = article(7, 'en').join('\n');
const chineseText = article(7, 'zh').join('\n');

test('too short to fingerprint: null SimHash and text hash (default minimum: 24 features)', () => {
  const cases: Array<[string, string, boolean]> = [
    ['empty', '', false],
    ['spaces and punctuation', ' \n\t…!?,. ', false],
    ['a few words', 'Page not found. Back to the home page.', false],
    ['25 distinct words: 23 shingles of 3', words(25), false],
    ['26 distinct words: 24 shingles', words(26), true],
    ['one long article', longText, true],
    ['a Chinese article', chineseText, true],
  ];
  for (const [name, text, fingerprinted] of cases) {
    const f = fp(text);
    assert.equal(f.simhash !== null, fingerprinted, name);
    assert.equal(f.textHash !== null, fingerprinted, name);
    assert.equal(simhash(text) !== null, fingerprinted, name);
  }
});

test('the same text gives the same fingerprint; case, width, spacing and punctuation do not count', () => {
  const a = fp(`${words(40)}\nThe Grid's load: 3.14 GW, don't panic.`);
  const variants = [
    `${words(40).toUpperCase()}\nthe grid's load 3.14 gw don't panic`,
    `  ${words(40).replace(/ /g, '  —  ')}\n\nThe Grid’s load: 3.14 GW, don’t panic!`,
    `${words(40)}\nＴｈｅ Ｇｒｉｄ's load: ３.１４ GW, don't panic.`, // full-width letters and digits
  ];
  for (const v of variants) {
    const b = fp(v);
    assert.deepEqual(b.simhash, a.simhash, v);
    assert.equal(b.textHash, a.textHash, v);
  }
});

test('token boundaries follow the tokeniser: what joins and what separates', () => {
  const base = words(30);
  const same = (x: string, y: string) =>
    fp(`${base} ${x}`).textHash === fp(`${base} ${y}`).textHash;
  const cases: Array<[string, string, boolean]> = [
    ["don't", 'don’t', true], // apostrophes are one
    ["don't", 'don t', false], // an apostrophe between letters joins
    ['3.14', '3 14', false], // a point between digits joins
    ['grid.', 'grid', true], // a final point separates
    ['high-voltage', 'high voltage', true], // a hyphen separates
    ['电网', '电 网', true], // every CJK character is a token
    ['𠀀𠀁', '𠀀 𠀁', true], // also outside the BMP
    ['a🙂b', 'a b', true], // emoji separate
  ];
  for (const [x, y, eq] of cases) assert.equal(same(x, y), eq, `${x} vs ${y}`);
});

test('short blocks (menus, link lists, footers) do not move the SimHash when long blocks suffice', () => {
  const a = fp(longText);
  const b = fp(
    `Site name\nHome | News | About\n${longText}\nRelated\nWhy the grid matters\n© 2024`,
  );
  assert.equal(a.allBlocks, false);
  assert.deepEqual(b.simhash, a.simhash);
  assert.notEqual(b.textHash, a.textHash, 'the text hash covers every block');
});

test('a text of short blocks only is fingerprinted over all of them', () => {
  const lines = Array.from({ length: 20 }, (_, i) => words(6, i * 6)).join('\n');
  const f = fp(lines);
  assert.equal(f.allBlocks, true);
  assert.ok(f.simhash !== null);
  assert.equal(f.features, 20 * 4);
});

test('a long token holding a digit (session id, hash) is a wildcard in shingles, not in the text hash', () => {
  const page = (sid: string) =>
    `${longText}\nSee https://grid.test/report?sessionid=${sid}&page=2 for the full report of the operator.`;
  const a = fp(page('a81f3c29d0e4'));
  const b = fp(page('77b20de9c1a5'));
  assert.deepEqual(b.simhash, a.simhash);
  assert.notEqual(b.textHash, a.textHash);
});

test('each distinct shingle counts once: repeating a paragraph does not move the SimHash', () => {
  const paragraphs = article(11, 'en');
  const once = fp(paragraphs.join('\n'));
  const twice = fp([...paragraphs, paragraphs[0], paragraphs[1]].join('\n'));
  assert.deepEqual(twice.simhash, once.simhash);
});

test('SimHash bits are balanced over many unrelated texts', () => {
  // Texts from a shared vocabulary share features, so their bits correlate: use random words.
  let seed = 99;
  const letter = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return String.fromCharCode(97 + ((seed >>> 24) % 26));
  };
  const randomText = (chars: number) => {
    let t = '';
    while (t.length < chars) t += `${letter()}${letter()}${letter()}${letter()} `;
    return t;
  };
  const ones = new Array<number>(64).fill(0);
  const n = 400;
  for (let s = 0; s < n; s++) {
    const h = fp(randomText(800)).simhash;
    assert.ok(h !== null);
    for (let b = 0; b < 32; b++) {
      ones[b] = (ones[b] ?? 0) + ((h.lo >>> b) & 1);
      ones[32 + b] = (ones[32 + b] ?? 0) + ((h.hi >>> b) & 1);
    }
  }
  for (const [b, c] of ones.entries()) assert.ok(c > n * 0.4 && c < n * 0.6, `bit ${b}: ${c}/${n}`);
});

test('every shingle size keeps a one-word change in a long article near', () => {
  const text = article(3, 'en', 20).join('\n');
  const edited = text.replace('the', 'zebra');
  for (const shingleSize of [1, 2, 3, 4]) {
    const f = createFingerprinter({ shingleSize });
    const a = f(text).simhash;
    const b = f(edited).simhash;
    assert.ok(a !== null && b !== null);
    assert.ok(hammingDistance(a, b) <= 6, `shingleSize ${shingleSize}`);
  }
});

test('options are validated: InvalidOptionError naming the field', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ shingleSize: 0 }, /shingleSize/],
    [{ shingleSize: 2.5 }, /shingleSize/],
    [{ cjkShingleSize: 17 }, /cjkShingleSize/],
    [{ minFeatures: 0 }, /minFeatures/],
    [{ minBlockWords: -1 }, /minBlockWords/],
    [{ maxDistance: 3 }, /maxDistance/], // a detector option, unknown here
    [{ shingle: 3 }, /shingle/],
  ];
  for (const [options, field] of cases) {
    assert.throws(
      () => createFingerprinter(options as never),
      (e: unknown) =>
        e instanceof InvalidOptionError &&
        e.code === 'FC_ERR_INVALID_OPTION' &&
        field.test(e.message),
      JSON.stringify(options),
    );
  }
});
