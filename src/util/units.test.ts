import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytes, formatCount, formatDuration, formatPercent, formatTime } from './units.js';

test('formatCount groups thousands', () => {
  const cases: [number, number, string][] = [
    [0, 0, '0'],
    [999, 0, '999'],
    [1000, 0, '1,000'],
    [1234567, 0, '1,234,567'],
    [1234.5678, 2, '1,234.57'],
  ];
  for (const [n, d, want] of cases) assert.equal(formatCount(n, d), want);
});

test('formatBytes uses binary units with three significant digits', () => {
  const cases: [number, string][] = [
    [0, '0 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1.00 KiB'],
    [1536, '1.50 KiB'],
    [5 * 1024 ** 2, '5.00 MiB'],
    [10 * 1024 * 1024, '10.0 MiB'],
    [123_456_789, '118 MiB'],
    [5 * 1024 ** 3, '5.00 GiB'],
  ];
  for (const [n, want] of cases) assert.equal(formatBytes(n), want, String(n));
});

test('formatDuration follows the 12m59s style', () => {
  const cases: [number, string][] = [
    [850, '850 ms'],
    [42_500, '42.5s'],
    [779_000, '12m59s'], // DESIGN 1.1's focused crawl
    [946_000, '15m46s'],
    [3_725_000, '1h02m05s'],
    [10_925_000, '3h02m05s'],
    [183_840_000, '2d03h04m'],
    [2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000, '2d03h04m'],
  ];
  for (const [ms, want] of cases) assert.equal(formatDuration(ms), want, String(ms));
});

test('formatPercent and formatTime show – for null', () => {
  assert.equal(formatPercent(2 / 3), '66.7%');
  assert.equal(formatPercent(null), '–');
  assert.equal(formatTime(Date.UTC(2024, 4, 1, 12, 0, 0, 123)), '2024-05-01T12:00:00Z');
  assert.equal(formatTime(null), '–');
});
