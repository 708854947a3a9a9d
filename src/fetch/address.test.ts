import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalizeUrl } from '../url/index.js';
import { blockedAddressKind, blockedHostKind, embeddedIpv4, ipv6Groups } from './address.js';

test('blockedAddressKind: IPv4 special ranges are refused with their kind', () => {
  const cases: Array<[string, string]> = [
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ];
  for (const [ip, kind] of cases) assert.equal(blockedAddressKind(ip), kind, ip);
});

test('blockedAddressKind: public IPv4 addresses next to the ranges pass', () => {
  for (const ip of [
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.1',
    '192.0.3.1',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '1.0.0.0',
  ]) {
    assert.equal(blockedAddressKind(ip), undefined, ip);
  }
  assert.equal(blockedAddressKind('not-an-ip'), undefined, 'not an IP literal');
});

test('blockedAddressKind: IPv6 special ranges are refused with their kind', () => {
  const cases: Array<[string, string]> = [
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'discard-only'],
    ['64:ff9b:1::1', 'NAT64 local-use'],
    ['64:ff9b:1:ffff::8.8.8.8', 'NAT64 local-use'],
  ];
  for (const [ip, kind] of cases) assert.equal(blockedAddressKind(ip), kind, ip);
});

test('blockedAddressKind: IPv6 forms carrying a refused IPv4 address are refused', () => {
  const cases: Array<[string, RegExp]> = [
    // IPv4-mapped, dotted and hex
    ['::ffff:127.0.0.1', /^loopback/],
    ['::ffff:7f00:1', /^loopback/],
    ['::FFFF:7F00:0001', /^loopback/],
    ['0:0:0:0:0:ffff:7f00:1', /^loopback/],
    ['::ffff:10.0.0.1', /^private/],
    ['::ffff:a00:1', /^private/],
    ['::ffff:169.254.169.254', /^cloud metadata/],
    ['::ffff:0.0.0.0', /^unspecified/],
    // IPv4-compatible (deprecated)
    ['::127.0.0.1', /^loopback \(IPv4-compatible 127\.0\.0\.1\)$/],
    ['::7f00:1', /^loopback \(IPv4-compatible/],
    ['::10.0.0.1', /^private \(IPv4-compatible/],
    // NAT64, well-known prefix
    ['64:ff9b::127.0.0.1', /^loopback \(NAT64 127\.0\.0\.1\)$/],
    ['64:ff9b::7f00:1', /^loopback \(NAT64/],
    ['64:ff9b::a9fe:a9fe', /^cloud metadata \(NAT64 169\.254\.169\.254\)$/],
    ['64:ff9b::192.168.0.1', /^private \(NAT64/],
    // 6to4
    ['2002:7f00:1::', /^loopback \(6to4 127\.0\.0\.1\)$/],
    ['2002:a00:1::1', /^private \(6to4 10\.0\.0\.1\)$/],
    ['2002:c0a8:101:0:0:0:0:1', /^private \(6to4 192\.168\.1\.1\)$/],
    // Teredo: the client's address, inverted
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', /^loopback \(Teredo 127\.0\.0\.1\)$/],
  ];
  for (const [ip, kind] of cases) assert.match(blockedAddressKind(ip) ?? '(allowed)', kind, ip);
});

test('blockedAddressKind: IPv6 forms carrying a public IPv4 address, and public IPv6, pass', () => {
  for (const ip of [
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b::5db8:d822',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo client 8.8.8.8
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860::1',
  ]) {
    assert.equal(blockedAddressKind(ip), undefined, ip);
  }
});

test('blockedAddressKind: host names and garbage are not addresses', () => {
  for (const s of ['example.com', '', '127.0.0.1.nip.io', '1.2.3', '::ffff:127.0.0.1.1', 'x::1']) {
    assert.equal(blockedAddressKind(s), undefined, JSON.stringify(s));
  }
});

test('ipv6Groups and embeddedIpv4 read the eight groups and the carried address', () => {
  assert.deepEqual(ipv6Groups('::'), [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(ipv6Groups('1::8'), [1, 0, 0, 0, 0, 0, 0, 8]);
  assert.deepEqual(ipv6Groups('::ffff:1.2.3.4'), [0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
  assert.deepEqual(ipv6Groups('1:2:3:4:5:6:7:8'), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(embeddedIpv4('::ffff:1.2.3.4'), { form: 'IPv4-mapped', ipv4: '1.2.3.4' });
  assert.deepEqual(embeddedIpv4('64:ff9b::102:304'), { form: 'NAT64', ipv4: '1.2.3.4' });
  assert.deepEqual(embeddedIpv4('2002:102:304::'), { form: '6to4', ipv4: '1.2.3.4' });
  assert.equal(embeddedIpv4('2606:4700::1'), undefined);
  assert.equal(embeddedIpv4('64:ff9b:1::102:304'), undefined);
});

test('URL hosts spelled in decimal, octal, hex or short forms canonicalise to refused addresses', () => {
  const cases: Array<[string, string, string]> = [
    ['http://2130706433/', 'http://127.0.0.1/', 'loopback'],
    ['http://0x7f.1/', 'http://127.0.0.1/', 'loopback'],
    ['http://0177.0.0.1/', 'http://127.0.0.1/', 'loopback'],
    ['http://0x7f000001/', 'http://127.0.0.1/', 'loopback'],
    ['http://017700000001/', 'http://127.0.0.1/', 'loopback'],
    ['http://127.1/', 'http://127.0.0.1/', 'loopback'],
    ['http://%31%32%37.0.0.1/', 'http://127.0.0.1/', 'loopback'],
    ['http://0/', 'http://0.0.0.0/', 'unspecified'],
    ['http://0xa.0.0.1/', 'http://10.0.0.1/', 'private'],
    ['http://3232235777/', 'http://192.168.1.1/', 'private'],
    ['http://0xA9FEA9FE/', 'http://169.254.169.254/', 'cloud metadata'],
    ['http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[::127.0.0.1]/', 'http://[::7f00:1]/', 'loopback (IPv4-compatible 127.0.0.1)'],
    ['http://[64:ff9b::127.0.0.1]/', 'http://[64:ff9b::7f00:1]/', 'loopback (NAT64 127.0.0.1)'],
    ['http://[::1]/', 'http://[::1]/', 'loopback'],
    ['http://LOCALHOST./', 'http://localhost./', 'loopback'],
    ['http://a.b.localhost/', 'http://a.b.localhost/', 'loopback'],
  ];
  for (const [input, canonical, kind] of cases) {
    const url = canonicalizeUrl(input);
    assert.equal(url, canonical, input);
    assert.equal(blockedHostKind(new URL(url!).hostname), kind, input);
  }
});

test('blockedHostKind: names are left to the lookup', () => {
  for (const h of ['example.com', 'a.test', '127.0.0.1.nip.io', 'localhost.example.com']) {
    assert.equal(blockedHostKind(h), undefined, h);
  }
});
