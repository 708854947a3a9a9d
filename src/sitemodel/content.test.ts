// Content text, template lines, and which pages repeat one another.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { duplicatePartners, pageContent, sameContent, templateLines } from './index.js';

const PROSE =
  'The river ran high all spring and the mill wheel turned day and night while the ' +
  'village counted sacks of flour stacked against the granary wall until the summer came';

describe('templateLines', () => {
  it('finds the lines on at least the given share of pages (and two)', () => {
    const texts = [
      'Home | Help\nfirst\nFooter',
      'Home | Help\nsecond\nFooter',
      'Home  |  Help\nthird',
    ];
    // Whitespace is collapsed before comparing; "Footer" is on 2 of 3 pages.
    assert.deepEqual([...templateLines(texts, 0.5)].sort(), ['Footer', 'Home | Help']);
    assert.deepEqual([...templateLines(texts, 0.9)], ['Home | Help']);
    assert.deepEqual([...templateLines(['a', 'b'], 0.5)], []); // once is never template
  });
});

describe('pageContent', () => {
  it('leaves the template out and measures the rest in characters', () => {
    const c = pageContent('Home | Help\nHello   world\nabc\n', new Set(['Home | Help']));
    assert.equal(c.size, 'Hello world'.length + 'abc'.length); // 14: line breaks not counted
    assert.equal(c.key, 'hello world\nabc');
    assert.equal(c.simhash, null); // too short for a SimHash
  });

  it('gives a SimHash to a long enough text', () => {
    assert.notEqual(pageContent(PROSE, new Set()).simhash, null);
  });
});

describe('sameContent', () => {
  const t = new Set<string>();
  it('equal texts once lower-cased, near SimHashes, and two empty pages', () => {
    assert.ok(sameContent(pageContent('Sign in first', t), pageContent('SIGN IN FIRST', t), 3));
    assert.ok(sameContent(pageContent(PROSE, t), pageContent(`${PROSE}\nPrinted view`, t), 3));
    assert.ok(sameContent(pageContent('', t), pageContent('', t), 3));
    assert.ok(!sameContent(pageContent('Sign in first', t), pageContent('Sign up now', t), 3));
    assert.ok(
      !sameContent(pageContent(PROSE, t), pageContent(PROSE.split(' ').reverse().join(' '), t), 3),
    );
  });
});

describe('duplicatePartners', () => {
  it('links equal and near pages both ways, and redirects', () => {
    const t = new Set<string>();
    const contents = [PROSE, 'short one', `${PROSE}\nPrinted view`, 'SHORT ONE', 'other'].map((x) =>
      pageContent(x, t),
    );
    const partners = duplicatePartners(contents, 3, new Map([[4, 1]]));
    assert.deepEqual(partners, [[2], [3, 4], [0], [1], [1]]);
  });
});
