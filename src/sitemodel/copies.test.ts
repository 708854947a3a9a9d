// Copies: a pattern whose pages' text is held by the other pages of the same item.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ContentSplit, type CopyPage, markCopies, shingles, urlId } from './index.js';

/** A split where every pattern of `pages` is content. */
function contentSplit(pages: readonly CopyPage[]): ContentSplit {
  const patterns: ContentSplit['patterns'] = new Map();
  pages.forEach((p, i) => {
    const r = patterns.get(p.fine) ?? { role: 'content' as const, pages: [] };
    r.pages.push(i);
    patterns.set(p.fine, r);
  });
  return { patterns, duplicate: pages.map(() => false) };
}

/** Twelve words a…l per post k: 10 shingles of 3 words each. */
const post = (k: number) => Array.from({ length: 12 }, (_, j) => `w${k}x${j}`).join(' ');

function page(fine: string, id: string | null, text: string, depth: number | null): CopyPage {
  return { fine, id, shingles: shingles(text), depth, redirect: false };
}

describe('shingles', () => {
  const cases: [string, number][] = [
    ['one two three four', 2], // "one two three", "two three four"
    ['one two', 0], // shorter than a shingle
    ['Two  TWO two two', 2], // case is the caller's: "two two two" would be one shingle
    ['论坛帖子内容', 4], // each Han character a token: 6 − 3 + 1
    ['a 论坛 b', 2], // a 论 坛 b: 4 tokens
  ];
  for (const [text, n] of cases) {
    it(`${JSON.stringify(text)} → ${n}`, () => assert.equal(shingles(text).size, n));
  }
});

describe('urlId', () => {
  const cases: [string, string | null][] = [
    ['http://f.test/archive/t-17.html', '17'],
    ['http://f.test/viewtopic.php?t=17&start=15', '17'],
    ['http://f.test/thread/9?page=2', '9'],
    ['http://f.test/t/abc123', null], // digits inside a token
    ['http://f.test/memberlist.php', null],
  ];
  for (const [url, id] of cases) it(`${url} → ${id}`, () => assert.equal(urlId(url), id));
});

describe('markCopies', () => {
  it('makes a light copy of a discussion a duplicate of the discussion', () => {
    // Items 1–3: the discussion (depth 2) has posts 1..2 plus its own by-lines; the
    // copy (depth 3) the same posts under other headings. Copy: 20 shingles of posts,
    // 0 of its headings (two words: no shingle) → 100% covered. Discussion: posts 20
    // shingles of 20 + by-line shingles "posted by someone today" (2) → 20/22 = 91%:
    // covered too, but nearer the start, so it is the original.
    const pages: CopyPage[] = [];
    for (const id of ['1', '2', '3']) {
      pages.push(page('/t/{n}', id, `${post(1)}\n${post(2)}\nposted by someone today`, 2));
      pages.push(page('/lofi/t-{n}.html', id, `${post(1)}\nlight copy\n${post(2)}`, 3));
    }
    const split = contentSplit(pages);
    const copies = markCopies(split, pages);
    assert.deepEqual([...copies], [['/lofi/t-{n}.html', '/t/{n}']]);
    assert.equal(split.patterns.get('/lofi/t-{n}.html')!.role, 'duplicate');
    assert.equal(split.patterns.get('/t/{n}')!.role, 'content');
    assert.deepEqual(split.duplicate, [false, true, false, true, false, true]);
  });

  it('keeps a page of the same item with text of its own (the next page of a discussion)', () => {
    // Page 2 of items 1–3 holds posts 3..4, which page 1 does not: 0% covered.
    const pages: CopyPage[] = [];
    for (const id of ['1', '2', '3']) {
      pages.push(page('/t/{n}', id, `${post(1)}\n${post(2)}`, 2));
      pages.push(page('/t/{n}?page={n}', id, `${post(3)}\n${post(4)}`, 3));
    }
    const split = contentSplit(pages);
    assert.equal(markCopies(split, pages).size, 0);
  });

  it('needs half of the judged pages covered, and two at least', () => {
    // Copy pattern: item 1 covered (10/10), item 2 not (its own posts: 0/10), item 3 has
    // no sibling (not judged). 1 covered of 2 judged ≥ 0.5, but fewer than two: kept.
    const pages: CopyPage[] = [
      page('/t/{n}', '1', post(1), 1),
      page('/c/{n}', '1', post(1), 2),
      page('/t/{n}', '2', post(2), 1),
      page('/c/{n}', '2', post(9), 2),
      page('/c/{n}', '3', post(3), 2),
    ];
    assert.equal(markCopies(contentSplit(pages), pages).size, 0);
    // With a third item covered: 2 of 3 judged → a copy.
    pages.push(page('/t/{n}', '4', post(4), 1), page('/c/{n}', '4', post(4), 2));
    assert.deepEqual([...markCopies(contentSplit(pages), pages)], [['/c/{n}', '/t/{n}']]);
  });

  it('covers at 80% of the shingles, not below', () => {
    // The copy holds 10 shingles of the post and k of its own (a 12-word line of its
    // own adds 10): 10/10 = 100%, 10/20 = 50% covered.
    const mk = (own: boolean) => {
      const pages: CopyPage[] = [];
      for (const id of ['1', '2']) {
        pages.push(page('/t/{n}', id, post(1), 1));
        pages.push(page('/c/{n}', id, own ? `${post(1)}\n${post(7)}` : post(1), 2));
      }
      return markCopies(contentSplit(pages), pages).size;
    };
    assert.equal(mk(false), 1);
    assert.equal(mk(true), 0);
  });

  it('never makes the pattern nearer the start the copy, and ignores other items and duplicates', () => {
    // Two patterns with the same text, the "copy" nearer the start than its original:
    // the farther one is the copy. A duplicate pattern is no one's original.
    const pages: CopyPage[] = [];
    for (const id of ['1', '2']) {
      pages.push(page('/a/{n}', id, post(Number(id)), 3));
      pages.push(page('/b/{n}', id, post(Number(id)), 1));
      pages.push(page('/p/{n}', id, post(Number(id)), 4));
    }
    const split = contentSplit(pages);
    split.patterns.get('/p/{n}')!.role = 'duplicate';
    assert.deepEqual([...markCopies(split, pages)], [['/a/{n}', '/b/{n}']]);
    // Other ids share no text: nothing.
    const other = [page('/a/{n}', '1', post(1), 1), page('/b/{n}', '2', post(1), 2)];
    assert.equal(markCopies(contentSplit(other), other).size, 0);
  });

  it('does not make a discussion a copy of its next page once its archive copy is out (regression)', () => {
    // Items 1–3: page 1 (posts 1, 2; depth 2), page 2 (posts 3, 4; depth 2, so as deep
    // as page 1), the archive (posts 1–4; depth 3). Page 1 is covered only by the
    // archive; the archive, by pages 1 and 2 together. Once the archive is a copy,
    // page 1 holds text nobody else does: it stays content (it was once made a
    // duplicate of page 2, which holds none of its text, by leftover counts).
    const pages: CopyPage[] = [];
    for (const id of ['1', '2', '3']) {
      pages.push(page('/t/{n}', id, `${post(1)}\n${post(2)}`, 2));
      pages.push(page('/t/{n}?start={n}', id, `${post(3)}\n${post(4)} w1x0 w1x1 w1x2`, 2));
      pages.push(page('/a/t-{n}.html', id, [1, 2, 3, 4].map(post).join('\n'), 3));
    }
    const split = contentSplit(pages);
    assert.deepEqual([...markCopies(split, pages)], [['/a/t-{n}.html', '/t/{n}']]);
    assert.equal(split.patterns.get('/t/{n}')!.role, 'content');
    assert.equal(split.patterns.get('/t/{n}?start={n}')!.role, 'content');
  });
});
