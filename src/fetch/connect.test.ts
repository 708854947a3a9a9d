import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResolveSpecError } from '../errors/index.js';
import { blockedHostKind } from './address.js';
import { HostResolver, parseResolveSpec } from './connect.js';

test('parseResolveSpec: valid specs', () => {
  const cases: Array<[string, string, string, number | undefined]> = [
    ['a.test=127.0.0.1', 'a.test', '127.0.0.1', undefined],
    ['A.Test=127.0.0.1:8080', 'a.test', '127.0.0.1', 8080],
    ['*.test=127.0.0.1:8080', '*.test', '127.0.0.1', 8080],
    ['*=10.0.0.1:3128', '*', '10.0.0.1', 3128],
    ['v6.test=[::1]:8443', 'v6.test', '::1', 8443],
    ['v6.test=[::1]', 'v6.test', '::1', undefined],
    ['v6.test=::1', 'v6.test', '::1', undefined],
    [' spaced.test = 1.2.3.4:1 ', 'spaced.test', '1.2.3.4', 1],
    ['dot.test.=1.2.3.4', 'dot.test', '1.2.3.4', undefined],
  ];
  for (const [spec, host, address, port] of cases) {
    const r = parseResolveSpec(spec);
    assert.deepEqual([r.host, r.address, r.port], [host, address, port], spec);
  }
});

test('parseResolveSpec: malformed specs name the spec', () => {
  const cases = [
    'a.test',
    'a.test:127.0.0.1',
    'a.test=',
    'a.test=localhost',
    'a.test=127.0.0.1:',
    'a.test=127.0.0.1:0',
    'a.test=127.0.0.1:65536',
    'a.test=127.0.0.1:80x',
    'a.test=999.0.0.1',
    'a.test=[::1',
    'a.test=[::1]x',
    'a.test=[127.0.0.1]',
    '=127.0.0.1',
    'a..test=127.0.0.1',
    'a b.test=127.0.0.1',
    'a.*.test=127.0.0.1',
  ];
  for (const spec of cases) {
    assert.throws(
      () => parseResolveSpec(spec),
      (e: Error) => e instanceof ResolveSpecError && e.message.includes(JSON.stringify(spec)),
      spec,
    );
  }
});

test('HostResolver: exact beats the longest wildcard, which beats *', () => {
  const r = new HostResolver([
    '*=10.0.0.9',
    '*.test=10.0.0.1',
    '*.b.test=10.0.0.2',
    'x.b.test=10.0.0.3',
  ]);
  const cases: Array<[string, string]> = [
    ['a.test', '10.0.0.1'],
    ['y.b.test', '10.0.0.2'],
    ['deep.y.b.test', '10.0.0.2'],
    ['x.b.test', '10.0.0.3'],
    ['test', '10.0.0.9'],
    ['example.org', '10.0.0.9'],
  ];
  for (const [host, address] of cases) assert.equal(r.match(host)?.address, address, host);
  const none = new HostResolver(['*.test=10.0.0.1']);
  assert.equal(none.match('test'), undefined);
  assert.equal(none.match('attest'), undefined);
  assert.equal(none.match('a.test.org'), undefined);
});

// blockedAddressKind's table of ranges: address.test.ts.

test('blockedHostKind: literals and localhost names, before DNS', () => {
  const cases: Array<[string, string | undefined]> = [
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['localhost', 'loopback'],
    ['localhost.', 'loopback'],
    ['app.localhost', 'loopback'],
    ['[fe80::1]', 'link-local'],
    ['example.org', undefined],
    ['1password.com', undefined],
    ['notlocalhost', undefined],
    ['93.184.216.34', undefined],
  ];
  for (const [host, kind] of cases) assert.equal(blockedHostKind(host), kind, host);
});
