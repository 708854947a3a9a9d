import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as errors from './index.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

test('every error code is documented in docs/errors.md, and nothing else is', () => {
  const codes = Object.keys(errors.ErrorCodes);
  for (const code of codes) assert.match(doc, new RegExp(`\\| \`${code}\` \\|`), code);
  const documented = [...doc.matchAll(/^\| `(FC_ERR_[A-Z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual(documented.sort(), [...codes].sort());
});

test('every error class carries its code, name, url, retryable flag and cause', () => {
  const classes = Object.entries(errors).filter(
    ([name, v]) =>
      typeof v === 'function' && /^[A-Z]\w*Error$/.test(name) && name !== 'FocusCrawlError',
  ) as Array<
    [string, new (m: string, o?: errors.FocusCrawlErrorOptions) => errors.FocusCrawlError]
  >;
  assert.ok(classes.length >= 16);
  for (const [name, C] of classes) {
    const cause = new Error('inner');
    const e = new C('boom', { cause, url: 'http://a.test/' });
    assert.ok(e instanceof errors.FocusCrawlError, `${name} instanceof`);
    assert.ok(errors.isFocusCrawlError(e));
    assert.equal(e.name, name);
    assert.ok(e.code in errors.ErrorCodes);
    assert.match(
      doc,
      new RegExp(`\\| \`${e.code}\` \\| \`${name}\` \\|`),
      `${name} row in the doc`,
    );
    assert.equal(e.url, 'http://a.test/');
    assert.equal(e.cause, cause);
    assert.equal(typeof e.retryable, 'boolean');
  }
});

test('retryable errors are the transient network ones', () => {
  assert.equal(new errors.NetworkError('x').retryable, true);
  assert.equal(new errors.ConnectTimeoutError('x').retryable, true);
  assert.equal(new errors.RobotsDisallowedError('x').retryable, false);
  assert.equal(new errors.BlockedAddressError('x').retryable, false);
});
