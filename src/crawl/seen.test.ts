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
