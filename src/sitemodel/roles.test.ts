// The content split: content patterns, duplicate patterns, duplicate pages.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ContentSplit, markViewParameters, type SplitPage, splitByContent } from './index.js';

interface P {
  fine: string;
  bytes?: number;
  links?: string[];
  redirectTo?: number;
}

/** Pages and symmetric partners from index pairs. */
function split(ps: P[], pairs: [number, number][], share = 0.5) {
  const pages: SplitPage[] = ps.map((p) => ({
    fine: p.fine,
    bytes: p.bytes ?? 1000,
    linked: new Set(p.links ?? []),
    ...(p.redirectTo === undefined ? {} : { redirectTo: p.redirectTo }),
  }));
  const partners: number[][] = ps.map(() => []);
  for (const [a, b] of pairs) {
    partners[a]!.push(b);
    partners[b]!.push(a);
  }
  return splitByContent(pages, partners, share);
}

const roles = (s: ReturnType<typeof split>) =>
  Object.fromEntries(
    [...s.patterns].map(([f, r]) => [
      f,
      r.role === 'content' ? 'content' : `dup of ${r.duplicateOf}`,
    ]),
  );

describe('splitByContent', () => {
  it('marks a print-like view of another pattern a duplicate', () => {
    // 0–3 articles (linked from the two lists), 4–6 their print views (linked from the
    // articles), each print repeating an article: m(print, article) = 3 of 3.
    const s = split(
      [
        { fine: '/t/{n}', bytes: 9000, links: ['/print/{n}'] },
        { fine: '/t/{n}', bytes: 9000, links: ['/print/{n}'] },
        { fine: '/t/{n}', bytes: 9000, links: ['/print/{n}'] },
        { fine: '/t/{n}', bytes: 9000 },
        { fine: '/print/{n}', bytes: 3000 },
        { fine: '/print/{n}', bytes: 3000 },
        { fine: '/print/{n}', bytes: 3000 },
        { fine: '/list/{n}', links: ['/t/{n}'] },
        { fine: '/list/{n}', links: ['/t/{n}'] },
      ],
      [
        [0, 4],
        [1, 5],
        [2, 6],
      ],
    );
    assert.deepEqual(roles(s), {
      '/list/{n}': 'content',
      '/print/{n}': 'dup of /t/{n}',
      '/t/{n}': 'content',
    });
    // Duplicate pages: the three prints; the articles are the originals.
    assert.deepEqual(s.duplicate, [false, false, false, false, true, true, true, false, false]);
  });

  it('takes the pattern other pages link to as the original, even when it has fewer pages', () => {
    // Two articles, four print views of them (two each): by pages alone the print would win.
    const s = split(
      [
        { fine: '/t/{n}', links: ['/print/{n}'] },
        { fine: '/t/{n}', links: ['/print/{n}'] },
        { fine: '/print/{n}' },
        { fine: '/print/{n}' },
        { fine: '/print/{n}', links: ['/t/{n}'] },
        { fine: '/print/{n}', links: ['/t/{n}'] },
        { fine: '/list/{n}', links: ['/t/{n}'] },
      ],
      [
        [0, 2],
        [0, 3],
        [1, 4],
        [1, 5],
      ],
    );
    assert.equal(roles(s)['/print/{n}'], 'dup of /t/{n}');
    assert.equal(roles(s)['/t/{n}'], 'content');
  });

  it('without links, more pages, then more bytes, then string order decide', () => {
    const byPages = split(
      [{ fine: '/a/{n}' }, { fine: '/b/{n}' }, { fine: '/b/{n}' }],
      [
        [0, 1],
        [0, 2],
      ],
    );
    assert.equal(roles(byPages)['/a/{n}'], 'dup of /b/{n}');
    const byBytes = split(
      [
        { fine: '/a', bytes: 5 },
        { fine: '/b', bytes: 9 },
      ],
      [[0, 1]],
    );
    assert.equal(roles(byBytes)['/a'], 'dup of /b');
    const byName = split([{ fine: '/b' }, { fine: '/a' }], [[0, 1]]);
    assert.equal(roles(byName)['/b'], 'dup of /a');
  });

  it('the simpler URL is the original: fewer query keys, then fewer path segments', () => {
    const byKeys = split(
      [{ fine: '/t/{n}' }, { fine: '/t/{n}?s={hex}' }, { fine: '/t/{n}?s={hex}' }],
      [
        [0, 1],
        [0, 2],
      ],
    );
    assert.equal(roles(byKeys)['/t/{n}?s={hex}'], 'dup of /t/{n}');
    const bySegments = split(
      [{ fine: '/t/{n}' }, { fine: '/p/t/{n}' }, { fine: '/p/t/{n}' }],
      [
        [0, 1],
        [0, 2],
      ],
    );
    assert.equal(roles(bySegments)['/p/t/{n}'], 'dup of /t/{n}');
  });

  it('a redirect is a duplicate of its target, whatever else says', () => {
    // /go/{n} has more pages and is linked from a list, yet its pages redirect to /t/{n}.
    const s = split(
      [
        { fine: '/t/{n}' },
        { fine: '/go/{n}', redirectTo: 0 },
        { fine: '/go/{n}', redirectTo: 0 },
        { fine: '/list', links: ['/go/{n}'] },
      ],
      [
        [1, 0],
        [2, 0],
      ],
    );
    assert.equal(roles(s)['/go/{n}'], 'dup of /t/{n}');
  });

  it('a pattern with few copies elsewhere is not a pair; repeats still count as duplicates', () => {
    // /a: 4 pages, one repeats /b's page: m(a, b) = 1 < 0.5·4, m(b, a) = 1 < 0.5·3.
    // /a's pages 2 and 3 repeat each other.
    const s = split(
      [
        { fine: '/a/{n}' },
        { fine: '/a/{n}' },
        { fine: '/a/{n}' },
        { fine: '/a/{n}' },
        { fine: '/b/{n}' },
        { fine: '/b/{n}' },
        { fine: '/b/{n}' },
      ],
      [
        [0, 4],
        [2, 3],
      ],
    );
    assert.deepEqual(roles(s), { '/a/{n}': 'content', '/b/{n}': 'content' });
    // The larger pattern's pages count first: page 4 repeats page 0, page 3 page 2.
    assert.deepEqual(s.duplicate, [false, false, false, true, true, false, false]);
  });

  it('minDupShare sets how much must be copied', () => {
    const ps: P[] = [
      { fine: '/a/{n}' },
      { fine: '/a/{n}' },
      { fine: '/a/{n}' },
      { fine: '/b/{n}' },
    ];
    // m(a, b) = 1 of 3; m(b, a) = 1 of 1 ≥ 0.5: a pair, /b the smaller, so the duplicate.
    assert.equal(roles(split(ps, [[0, 3]]))['/b/{n}'], 'dup of /a/{n}');
    assert.equal(roles(split(ps, [[0, 3]], 1))['/b/{n}'], 'dup of /a/{n}');
    assert.equal(
      roles(split(ps.slice(0, 3).concat(ps[3]!, ps[3]!), [[0, 3]], 0.6))['/b/{n}'],
      'content',
    );
  });
});

describe('markViewParameters', () => {
  const splitOf = (fines: string[]): ContentSplit => ({
    patterns: new Map(fines.map((f, i) => [f, { role: 'content' as const, pages: [i] }])),
    duplicate: fines.map(() => false),
  });
  it('makes word-valued extra keys and one-word path prefixes views of the plain pattern', () => {
    const s = splitOf([
      '/t/{n}',
      '/t/{n}?order=desc',
      '/t/{n}?page={n}',
      '/t/{n}?page={n}&order=desc',
      '/print/t/{n}',
      '/f?id={n}',
      '/f?id={n}&sk=t&sd=d',
      '/f?id={n}&start={n}',
      '/u?id={n}',
    ]);
    markViewParameters(s);
    const dup = Object.fromEntries(
      [...s.patterns].map(([f, r]) => [f, r.role === 'duplicate' ? r.duplicateOf : null]),
    );
    assert.deepEqual(dup, {
      '/t/{n}': null,
      '/t/{n}?order=desc': '/t/{n}',
      '/t/{n}?page={n}': null, // a page number is not a view
      '/t/{n}?page={n}&order=desc': '/t/{n}?page={n}',
      '/print/t/{n}': '/t/{n}',
      '/f?id={n}': null,
      '/f?id={n}&sk=t&sd=d': '/f?id={n}',
      '/f?id={n}&start={n}': null,
      '/u?id={n}': null,
    });
    assert.deepEqual(s.duplicate, [false, true, false, true, true, false, true, false, false]);
  });
});
