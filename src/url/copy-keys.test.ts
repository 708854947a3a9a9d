import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COPY_KEY_LEARN_AT, CopyKeys, copyKeys, likelyCopies, withoutKeys } from './index.js';

const H = 'http://news.test';

describe('copyKeys: the keys one URL of a page adds to the other', () => {
  const table: [string, string, string, string[] | null][] = [
    ['a session id added', `${H}/a/1.html?s=d418bb41`, `${H}/a/1.html`, ['s']],
    ['either way round', `${H}/a/1.html`, `${H}/a/1.html?s=d418bb41`, ['s']],
    ['beside a key both keep', `${H}/t?id=7&sid=9f8e7d6c5b`, `${H}/t?id=7`, ['sid']],
    ['a path parameter', `${H}/a/7;jsessionid=8F3A1C2B`, `${H}/a/7`, [';jsessionid']],
    ['two keys at once', `${H}/p?utm_id=abc123&ref=xyz789`, `${H}/p`, ['utm_id', 'ref']],
    ['three keys: too many', `${H}/p?a=abc123&b=abc123&c=abc123`, `${H}/p`, null],
    ['both have it, values differ', `${H}/p?id=123456`, `${H}/p?id=654321`, null],
    ['a kept key differs too', `${H}/p?id=1&s=abc123`, `${H}/p?id=2`, null],
    ['not id-like: no digit', `${H}/p?lang=english`, `${H}/p`, null],
    ['not id-like: too short', `${H}/p?page=1`, `${H}/p`, null],
    ['not id-like: no value', `${H}/p?print`, `${H}/p`, null],
    ['another path', `${H}/a/1.html?s=d418bb41`, `${H}/a/2.html`, null],
    ['another host', `${H}/a?s=d418bb41`, 'http://other.test/a', null],
    ['another port', `${H}:8080/a?s=d418bb41`, `${H}/a`, null],
    ['the same URL', `${H}/a?s=d418bb41`, `${H}/a?s=d418bb41`, null],
  ];
  for (const [name, a, b, expected] of table) {
    it(name, () => assert.deepEqual(copyKeys(a, b), expected));
  }
});

describe('likelyCopies: links that are a known URL plus a session id', () => {
  const page = `${H}/a/1.html`;
  const known = new Set([page, `${H}/a/0.html`]);
  const table: [string, string[], string[]][] = [
    ['the page itself with a session id', [`${page}?s=d418bb41`], [`${page}?s=d418bb41`]],
    [
      'another link with the same session id, its own URL unknown',
      [`${page}?s=d418bb41`, `${H}/a/2.html?s=d418bb41`],
      [`${page}?s=d418bb41`, `${H}/a/2.html?s=d418bb41`],
    ],
    [
      'the same id before the link that shows it',
      [`${H}/a/2.html?s=d418bb41`, `${page}?s=d418bb41`],
      [`${H}/a/2.html?s=d418bb41`, `${page}?s=d418bb41`],
    ],
    [
      'a known page with a path parameter',
      [`${H}/a/0.html;jsessionid=8F3A1C2B`],
      [`${H}/a/0.html;jsessionid=8F3A1C2B`],
    ],
    ['an unknown page with an id: not judged', [`${H}/a/2.html?s=d418bb41`], []],
    [
      'another id on another link',
      [`${page}?s=d418bb41`, `${H}/a/2.html?s=77aa88bb`],
      [`${page}?s=d418bb41`],
    ],
    [
      'the same id on another host',
      [`${page}?s=d418bb41`, 'http://b.test/a/2.html?s=d418bb41'],
      [`${page}?s=d418bb41`],
    ],
    ['a value that is no id', [`${page}?view=print`, `${page}?page=2`], []],
    ['a link without a query', [`${H}/a/2.html`, page], []],
  ];
  for (const [name, links, expected] of table) {
    it(name, () =>
      assert.deepEqual([...likelyCopies(links, (u) => known.has(u))].sort(), [...expected].sort()),
    );
  }
});

describe('withoutKeys', () => {
  const keys = new Set(['s', ';jsessionid']);
  const table: [string, string][] = [
    [`${H}/a?s=1`, `${H}/a`],
    [`${H}/a?x=1&s=2&y=3`, `${H}/a?x=1&y=3`],
    [`${H}/a?s=1&s=2`, `${H}/a`],
    [`${H}/a?ss=1`, `${H}/a?ss=1`],
    [`${H}/a?x=1#s=2`, `${H}/a?x=1#s=2`],
    [`${H}/a;jsessionid=ABC123?x=1`, `${H}/a?x=1`],
    [`${H}/a;other=1`, `${H}/a;other=1`],
    [`${H}/;x/b?s=1`, `${H}/;x/b`],
    [`${H}/`, `${H}/`],
    // A URL without the keys is given back as it was written.
    [`${H}/a?x=1&&y=2&`, `${H}/a?x=1&&y=2&`],
  ];
  for (const [url, expected] of table) {
    it(`${url} → ${expected}`, () => assert.equal(withoutKeys(url, keys), expected));
  }
});

describe('CopyKeys', () => {
  it(`learns a key once it has made copies of ${COPY_KEY_LEARN_AT} different pages`, () => {
    const k = new CopyKeys();
    assert.deepEqual(k.observe(`${H}/a/1.html?s=d418bb41`, `${H}/a/1.html`), []);
    assert.equal(k.strip(`${H}/a/3.html?s=d418bb41`), `${H}/a/3.html?s=d418bb41`);
    // The same page again, under another session: still one page.
    assert.deepEqual(k.observe(`${H}/a/1.html?s=77aa88bb`, `${H}/a/1.html`), []);
    assert.deepEqual(k.observe(`${H}/a/2.html`, `${H}/a/2.html?s=d418bb41`), ['s']);
    assert.equal(k.strip(`${H}/a/3.html?s=d418bb41`), `${H}/a/3.html`);
    assert.equal(k.strip(`${H}/a/3.html?page=2&s=d418bb41`), `${H}/a/3.html?page=2`);
    assert.deepEqual(k.observe(`${H}/a/4.html?s=d418bb41`, `${H}/a/4.html`), [], 'learnt once');
    assert.equal(k.size, 1);
  });

  it('needs one page for a key learnt on another origin', () => {
    const k = new CopyKeys();
    k.observe(`${H}/a/1.html?s=d418bb41`, `${H}/a/1.html`);
    k.observe(`${H}/a/2.html?s=d418bb41`, `${H}/a/2.html`);
    const other = 'http://other.test';
    assert.deepEqual(k.observe(`${other}/b/1.html?s=77aa88bb`, `${other}/b/1.html`), ['s']);
    assert.equal(k.strip(`${other}/b/5.html?s=77aa88bb`), `${other}/b/5.html`);
    // Another key still needs two pages there.
    assert.deepEqual(k.observe(`${other}/b/1.html?sid=77aa88bb`, `${other}/b/1.html`), []);
    const stored = new CopyKeys(COPY_KEY_LEARN_AT, { [H]: ['s'] });
    assert.deepEqual(stored.observe(`${other}/c?s=123abc`, `${other}/c`), ['s']);
  });

  it('keeps what it learns to its origin', () => {
    const k = new CopyKeys(2, { [H]: ['s'] });
    assert.equal(k.strip('http://other.test/a?s=d418bb41'), 'http://other.test/a?s=d418bb41');
    assert.equal(k.strip(`${H}:8080/a?s=d418bb41`), `${H}:8080/a?s=d418bb41`);
    assert.equal(k.strip(`${H}/a?s=d418bb41`), `${H}/a`);
  });

  it('pages that differ in their query are different pages', () => {
    const k = new CopyKeys();
    assert.deepEqual(k.observe(`${H}/show?id=1&sid=abc123`, `${H}/show?id=1`), []);
    assert.deepEqual(k.observe(`${H}/show?id=2&sid=abc123`, `${H}/show?id=2`), ['sid']);
  });

  it('learns nothing from pairs it does not count', () => {
    const k = new CopyKeys();
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(k.observe(`${H}/p${i}?lang=english`, `${H}/p${i}`), []);
      assert.deepEqual(k.observe(`${H}/q?id=${100000 + i}`, `${H}/q?id=${200000 + i}`), []);
    }
    assert.equal(k.size, 0);
    assert.deepEqual(k.toJSON(), {});
  });

  it('gives back what it learnt for the store, and takes it again', () => {
    const k = new CopyKeys();
    k.observe(`${H}/a/1;jsessionid=8F3A1C2B`, `${H}/a/1`);
    k.observe(`${H}/a/2;jsessionid=8F3A1C2B`, `${H}/a/2`);
    assert.deepEqual(k.toJSON(), { [H]: [';jsessionid'] });
    const again = new CopyKeys(COPY_KEY_LEARN_AT, k.toJSON());
    assert.equal(again.strip(`${H}/a/9;jsessionid=FFEE0011`), `${H}/a/9`);
  });
});
