// Deciding URLs with a site model: valid, invalid, unknown, and which pattern speaks.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDecider, decide } from './index.js';
import { handModel } from './testing.js';

const U = 'https://bbs.example.test';

describe('decide', () => {
  // [url, verdict, pattern, cluster]
  const table: [string, 'valid' | 'invalid' | 'unknown', string?, number?][] = [
    [`${U}/t/42`, 'valid', '/{w}/{n}', 1],
    [`${U}/t/42?page=3`, 'valid', '/t/{n}?page={n}', 1],
    [`${U}/t/42?sort=asc`, 'invalid', '/t/{n}?sort={w}', 1], // a duplicate in a valid cluster
    [`${U}/list/7`, 'valid', '/list/{n}', 2], // more specific than /{w}/{n}
    [`${U}/print/42`, 'invalid', '/print/{n}', 3],
    [`${U}/form?item=42`, 'invalid', '/form?item={n}', 4],
    [`${U}/t/42?page=3&x=1`, 'unknown'], // an extra key: no pattern
    [`${U}/about`, 'unknown'],
    ['https://other.test/t/42', 'unknown'], // another host
    ['ftp://bbs.example.test/t/1', 'unknown'],
  ];
  const model = handModel();
  for (const [url, verdict, pattern, cluster] of table) {
    it(`${url}: ${verdict}`, () => {
      const d = decide(model, url);
      assert.equal(d.verdict, verdict, d.reason);
      assert.equal(d.pattern, pattern);
      assert.equal(d.cluster, cluster);
    });
  }

  it('explains itself', () => {
    assert.equal(
      decide(model, `${U}/print/1`).reason,
      '/print/{n} (cluster 3): a duplicate of /{w}/{n}',
    );
    assert.equal(
      decide(model, `${U}/form?item=1`).reason,
      '/form?item={n}: content pattern of cluster 4 (no-content, invalid)',
    );
    assert.equal(decide(model, `${U}/about`).reason, 'matches no pattern of the model');
    assert.match(decide(model, 'https://other.test/').reason, /host other\.test is not one/);
  });

  it("follows a person's edit of a cluster's decision", () => {
    const edited = handModel();
    edited.clusters[3]!.decision = 'valid';
    assert.equal(createDecider(edited)(`${U}/form?item=1`).verdict, 'valid');
    assert.equal(decide(model, `${U}/form?item=1`).verdict, 'invalid');
  });

  it('breaks ties between equally specific patterns by sample pages', () => {
    const m = handModel();
    m.clusters[3]!.patterns.push({ pattern: '/{w}/{w}', pages: 1, role: 'content' });
    m.clusters[1]!.patterns.push({ pattern: '/{w}/{w}', pages: 9, role: 'content' });
    assert.equal(createDecider(m)(`${U}/a/b`).cluster, 2);
  });
});
