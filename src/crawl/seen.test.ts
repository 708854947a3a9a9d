import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeenUrls } from './seen.js';

test('seen URLs: remembered across one turnover, forgotten after two unless used', () => {
  const s = new SeenUrls(2);
  s.add('a');
  assert.ok(s.has('a'));
  s.add('b'); // young {a,b} is full → becomes old
  assert.ok(s.has('b'), 'old generation still answers');
  s.add('c');
  s.add('d'); // b was re-added to young by has(); young {b,c} turned over, then d
  assert.equal(s.has('a'), false, 'a was not used in the last generation');
  assert.ok(s.has('c'));
  assert.ok(s.has('d'));
});

test('seen URLs: firstSight is true once per URL, across table growth', () => {
  const s = new SeenUrls(1_000_000);
  const urls = Array.from({ length: 20_000 }, (_, i) => `http://h${i % 7}.test/p/${i}`);
  for (const u of urls) assert.equal(s.firstSight(u), true, u);
  for (const u of urls) assert.equal(s.firstSight(u), false, u);
  for (const u of urls) assert.ok(s.has(u));
  assert.equal(s.has('http://h0.test/p/20000'), false);
});

test('seen URLs: a URL from the old generation is not a first sight', () => {
  const s = new SeenUrls(2);
  assert.equal(s.firstSight('a'), true);
  assert.equal(s.firstSight('b'), true); // young turned over: {a, b} is old
  assert.equal(s.firstSight('a'), false);
  assert.equal(s.firstSight('c'), true);
});

test('seen URLs: has then addChecked records the URL checked', () => {
  const s = new SeenUrls();
  assert.equal(s.has('http://a.test/1'), false);
  assert.equal(s.has('http://a.test/2'), false);
  s.addChecked();
  assert.equal(s.has('http://a.test/2'), true);
  assert.equal(s.has('http://a.test/1'), false, 'only the last URL checked was added');
});
