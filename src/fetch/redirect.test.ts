import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  InvalidUrlError,
  OutOfScopeError,
  RedirectLoopError,
  TooManyRedirectsError,
} from '../errors/index.js';
import { followRedirect, isRedirect } from './redirect.js';
import type { RedirectHop } from './types.js';

const open = { maxRedirects: 5, scope: undefined };

test('isRedirect: only 301/302/303/307/308 with a Location', () => {
  for (const s of [301, 302, 303, 307, 308]) assert.equal(isRedirect(s, '/x'), true, `${s}`);
  for (const s of [300, 304, 305, 200, 404]) assert.equal(isRedirect(s, '/x'), false, `${s}`);
  assert.equal(isRedirect(301, undefined), false);
  assert.equal(isRedirect(301, ''), false);
});

test('relative and absolute locations are canonicalised and recorded', () => {
  const chain: RedirectHop[] = [];
  const start = 'http://a.test/a/b';
  const n1 = followRedirect(start, chain, start, 301, '../c#frag', open);
  assert.equal(n1, 'http://a.test/c');
  const n2 = followRedirect(start, chain, n1, 302, 'HTTP://B.TEST:80/d', open);
  assert.equal(n2, 'http://b.test/d');
  assert.deepEqual(chain, [
    { url: 'http://a.test/a/b', status: 301, location: 'http://a.test/c' },
    { url: 'http://a.test/c', status: 302, location: 'http://b.test/d' },
  ]);
});

test('loops, too many hops, scope and bad targets', () => {
  const start = 'http://a.test/1';
  const chain: RedirectHop[] = [];
  const n = followRedirect(start, chain, start, 302, '/2', open);
  assert.throws(() => followRedirect(start, chain, n, 302, '/1', open), RedirectLoopError);
  assert.throws(
    () => followRedirect(start, [], start, 302, start, open),
    RedirectLoopError,
    'a self-redirect is a loop',
  );

  const long: RedirectHop[] = [];
  let cur = start;
  for (let i = 0; i < 2; i++)
    cur = followRedirect(start, long, cur, 301, `/h${i}`, { ...open, maxRedirects: 2 });
  assert.throws(
    () => followRedirect(start, long, cur, 301, '/h9', { ...open, maxRedirects: 2 }),
    TooManyRedirectsError,
  );

  const scope = (u: string) => u.startsWith('http://a.test/');
  assert.throws(
    () => followRedirect(start, [], start, 302, 'http://evil.test/', { maxRedirects: 5, scope }),
    OutOfScopeError,
  );
  assert.throws(
    () => followRedirect(start, [], start, 302, 'ftp://a.test/x', open),
    InvalidUrlError,
  );
  assert.throws(() => followRedirect(start, [], start, 302, 'http://[bad', open), InvalidUrlError);
});
