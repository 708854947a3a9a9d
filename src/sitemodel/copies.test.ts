// Copies: a pattern whose pages' text is held by the other pages of the same item.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { urlIds } from '../url/index.js';
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

describe('urlIds', () => {
  const cases: [string, string[]][] = [
    ['http://f.test/item?g=2&i=17', ['2', '17']],
    ['http://f.test/viewtopic.php?t=17&start=15', ['17', '15']],
    ['http://f.test/f/2/t/2', ['2']], // each once
    ['http://f.test/t/abc123?sid=9f3e', []], // digits inside a token, hex
  ];
  for (const [url, ids] of cases) {
    it(`${url} → ${ids.join(', ') || 'none'}`, () => assert.deepEqual(urlIds(url), ids));
  }
});

describe('markCopies', () => {
  it('makes a light copy of a discussion a duplicate of the discussion', () => {
    // Items 1–3: the discussion (depth 2) has posts 1, 2 and a by-line of its own; the
    // copy (depth 3) the same posts under a two-word heading (no shingle). Discussion
    // in copy: posts 20 shingles of 22 (the by-line "posted by someone today" adds 2)
    // = 91% ≥ 60%: contained, on 3 of 3 pages. One content; the copy is one link
    // farther from the start.
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

  it('pairs an archive holding more than one page with the first page it holds', () => {
    // The archive (depth 3) holds posts 1–4; page 1 (depth 2) posts 1, 2, so page 1 is
    // contained in the archive (100%) though the archive is not in page 1 (about half).
    const pages: CopyPage[] = [];
    for (const id of ['1', '2']) {
      pages.push(page('/t/{n}', id, `${post(1)}\n${post(2)}`, 2));
      pages.push(page('/a/t-{n}.html', id, [1, 2, 3, 4].map(post).join('\n'), 3));
    }
    assert.deepEqual([...markCopies(contentSplit(pages), pages)], [['/a/t-{n}.html', '/t/{n}']]);
  });

  it('keeps a page of the same item with text of its own (the next page of a discussion)', () => {
    // Page 2 of items 1–3 holds posts 3, 4, which page 1 does not: 0% either way.
    const pages: CopyPage[] = [];
    for (const id of ['1', '2', '3']) {
      pages.push(page('/t/{n}', id, `${post(1)}\n${post(2)}`, 2));
      pages.push(page('/t/{n}?page={n}', id, `${post(3)}\n${post(4)}`, 3));
    }
    const split = contentSplit(pages);
    assert.equal(markCopies(split, pages).size, 0);
  });

  it('needs half of the judged pages contained, and two at least', () => {
    // Item 1: the same text both ways; item 2: other texts; item 3: no sibling (not
    // judged). 1 contained of 2 judged ≥ 0.5, but fewer than two: kept.
    const pages: CopyPage[] = [
      page('/t/{n}', '1', post(1), 1),
      page('/c/{n}', '1', post(1), 2),
      page('/t/{n}', '2', post(2), 1),
      page('/c/{n}', '2', post(9), 2),
      page('/c/{n}', '3', post(3), 2),
    ];
    assert.equal(markCopies(contentSplit(pages), pages).size, 0);
    // With a third item alike: 2 of 3 judged → one content, the deeper is the copy.
    pages.push(page('/t/{n}', '4', post(4), 1), page('/c/{n}', '4', post(4), 2));
    assert.deepEqual([...markCopies(contentSplit(pages), pages)], [['/c/{n}', '/t/{n}']]);
  });

  it('contains at 60% of the shingles, not below', () => {
    // The copy's pages hold the post (10 shingles) and 0 or 2 own lines (each 12 words:
    // 10 shingles, and 2 across each line break): post in copy is 100% either way, so
    // that one containment pairs them. Without the post in it (2 own lines only): 0%.
    const mk = (text: string) => {
      const pages: CopyPage[] = [];
      for (const id of ['1', '2']) {
        pages.push(page('/t/{n}', id, post(1), 1));
        pages.push(page('/c/{n}', id, text, 2));
      }
      return markCopies(contentSplit(pages), pages).size;
    };
    assert.equal(mk(post(1)), 1);
    assert.equal(mk(`${post(1)}\n${post(7)}\n${post(8)}`), 1);
    assert.equal(mk(`${post(7)}\n${post(8)}`), 0);
    // Half of the post (6 of 12 words: 4 of its 10 shingles = 40% < 60%) is not enough.
    const half = post(1).split(' ').slice(0, 6).join(' ');
    assert.equal(mk(`${half}\n${post(7)}`), 0);
  });

  it('leaves two patterns as near the start as each other, and ignores other items and duplicates', () => {
    const pages: CopyPage[] = [];
    for (const id of ['1', '2']) {
      pages.push(page('/a/{n}', id, post(Number(id)), 3));
      pages.push(page('/b/{n}', id, post(Number(id)), 3));
      pages.push(page('/p/{n}', id, post(Number(id)), 4));
    }
    const split = contentSplit(pages);
    split.patterns.get('/p/{n}')!.role = 'duplicate';
    assert.equal(markCopies(split, pages).size, 0);
    // Other ids share no text: nothing.
    const other = [page('/a/{n}', '1', post(1), 1), page('/b/{n}', '2', post(1), 2)];
    assert.equal(markCopies(contentSplit(other), other).size, 0);
  });

  it('does not make a discussion a copy of its next page once its archive copy is out (regression)', () => {
    // Page 1 and page 2 as deep as each other (2), the archive (posts 1–4) deeper (3).
    // Page 1 and page 2 are each in the archive: the archive goes. Then page 1 and
    // page 2 share nothing: both stay content.
    const pages: CopyPage[] = [];
    for (const id of ['1', '2', '3']) {
      pages.push(page('/t/{n}', id, `${post(1)}\n${post(2)}`, 2));
      pages.push(page('/t/{n}?start={n}', id, `${post(3)}\n${post(4)}`, 2));
      pages.push(page('/a/t-{n}.html', id, [1, 2, 3, 4].map(post).join('\n'), 3));
    }
    const split = contentSplit(pages);
    const copies = markCopies(split, pages);
    assert.deepEqual([...copies.keys()], ['/a/t-{n}.html']);
    assert.equal(split.patterns.get('/t/{n}')!.role, 'content');
    assert.equal(split.patterns.get('/t/{n}?start={n}')!.role, 'content');
  });
});
