// Requests per URL pattern: each URL fetched goes to the pattern that decides it, and
// the share on valid patterns is over the requests on the model's hosts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRequestTally, type RequestsByPattern, requestsByPattern } from './index.js';
import { handModel } from './testing.js';

const U = 'https://bbs.example.test';

describe('requestsByPattern', () => {
  const model = handModel();
  const row = (r: RequestsByPattern, pattern: string) => r.rows.find((x) => x.pattern === pattern);

  // [case, urls, total, valid, unknown, offSite, validShare, rows as pattern:verdict:kind:requests]
  const table: [string, string[], number, number, number, number, number | null, string[]][] = [
    ['nothing fetched', [], 0, 0, 0, 0, null, []],
    [
      'valid patterns only',
      [`${U}/t/1`, `${U}/t/2`, `${U}/list/1`],
      3,
      3,
      0,
      0,
      1,
      ['/{w}/{n}:valid:content:2', '/list/{n}:valid:list:1'],
    ],
    [
      'invalid clusters and a duplicate pattern in a valid cluster',
      [`${U}/t/1`, `${U}/print/1`, `${U}/print/2`, `${U}/t/1?sort=asc`, `${U}/form?item=1`],
      5,
      1,
      0,
      0,
      0.2,
      [
        '/print/{n}:invalid:duplicate:2',
        '/form?item={n}:invalid:no-content:1',
        '/t/{n}?sort={w}:invalid:content:1',
        '/{w}/{n}:valid:content:1',
      ],
    ],
    [
      'unknown URLs count in the total, other hosts do not',
      [`${U}/t/1`, `${U}/about`, 'https://other.test/t/1', 'ftp://bbs.example.test/t/1'],
      2,
      1,
      1,
      2,
      0.5,
      ['/{w}/{n}:valid:content:1'],
    ],
    [
      'a URL fetched twice is two requests; URLs are canonicalised',
      [`${U}/t/7`, `${U}/t/7`, 'HTTPS://BBS.example.test:443/t/7#x'],
      3,
      3,
      0,
      0,
      1,
      ['/{w}/{n}:valid:content:3'],
    ],
  ];
  for (const [name, urls, total, valid, unknown, offSite, share, rows] of table) {
    it(name, () => {
      const r = requestsByPattern(model, urls);
      assert.deepEqual(
        { total: r.total, valid: r.valid, unknown: r.unknown, offSite: r.offSite },
        { total, valid, unknown, offSite },
      );
      assert.equal(r.validShare, share);
      assert.deepEqual(
        r.rows.map((x) => `${x.pattern}:${x.verdict}:${x.kind}:${x.requests}`),
        rows,
      );
    });
  }

  it('gives each row its cluster and role', () => {
    const r = requestsByPattern(model, [`${U}/t/1?sort=x`, `${U}/list/2`]);
    assert.deepEqual(row(r, '/t/{n}?sort={w}'), {
      pattern: '/t/{n}?sort={w}',
      verdict: 'invalid',
      kind: 'content',
      role: 'duplicate',
      cluster: 1,
      requests: 1,
    });
    assert.equal(row(r, '/list/{n}')?.cluster, 2);
    assert.equal(row(r, '/list/{n}')?.role, 'content');
  });

  it('a tally adds one URL at a time, and its result is a copy', () => {
    const tally = createRequestTally(model);
    tally.add(`${U}/t/1`);
    const first = tally.result();
    tally.add(`${U}/t/2`);
    assert.equal(first.rows[0]?.requests, 1);
    assert.equal(tally.result().rows[0]?.requests, 2);
    assert.deepEqual(tally.result(), requestsByPattern(model, [`${U}/t/1`, `${U}/t/2`]));
  });
});
