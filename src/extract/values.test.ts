import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { collapseWhitespace, parseDate, parseMoney, parseNumber, typeValue } from './index.js';

function table<T>(name: string, f: (s: string) => T, cases: [string, T][]): void {
  test(name, () => {
    for (const [input, want] of cases) assert.deepEqual(f(input), want, input);
  });
}

describe('number', () => {
  table('plain decimals, the first number in the text', parseNumber, [
    ['42', '42'],
    ['1,234', '1234'],
    ['1,234,567.50', '1234567.5'],
    ['-3.25', '-3.25'],
    ['−7', '-7'],
    ['１２，３４５', '12345'],
    ['浏览 12,345 次', '12345'],
    ['12,34', '12'],
    ['007', '7'],
    ['0.50', '0.5'],
    ['10-20', '10'],
    ['abc', undefined],
    ['', undefined],
  ]);
  table('Chinese multipliers, exactly', parseNumber, [
    ['1.5万', '15000'],
    ['1.23万', '12300'],
    ['3 万', '30000'],
    ['2亿', '200000000'],
    ['1.5千', '1500'],
    ['5百万', '5000000'],
    ['0.0005万', '5'],
    ['0.00001万', '0.1'],
  ]);
});

describe('date', () => {
  table('dates to ISO 8601', parseDate, [
    ['2024-01-05', '2024-01-05'],
    ['2024/1/5', '2024-01-05'],
    ['2024.1.5', '2024-01-05'],
    ['2024年1月5日', '2024-01-05'],
    ['2024 年 12 月 31 号', '2024-12-31'],
    ['２０２４年１月５日', '2024-01-05'],
    ['发布日期：2023-12-17', '2023-12-17'],
    ['Jan 5, 2024', '2024-01-05'],
    ['January 5th 2024', '2024-01-05'],
    ['Sept. 30, 2023', '2023-09-30'],
    ['5 January 2024', '2024-01-05'],
    ['2024-02-29', '2024-02-29'],
  ]);
  table('with a time of day and a zone', parseDate, [
    ['2024-01-05T10:00:00+08:00', '2024-01-05T10:00:00+08:00'],
    ['2024-01-05T10:00:00.123Z', '2024-01-05T10:00:00Z'],
    ['2024-01-05 10:30', '2024-01-05T10:30:00'],
    ['2024-01-05T10:00:00+0800', '2024-01-05T10:00:00+08:00'],
    ['Fri, 05 Jan 2024 10:00:00 GMT', '2024-01-05T10:00:00Z'],
    ['2024年1月5日 9:05', '2024-01-05T09:05:00'],
  ]);
  table('not dates', parseDate, [
    ['2023-02-29', undefined],
    ['2024-13-01', undefined],
    ['2024-01-05 25:00', undefined],
    ['05/01/2024', undefined],
    ['3天前', undefined],
    ['abc', undefined],
  ]);
});

describe('money', () => {
  table('amounts, ranges, currencies and periods', (s) => parseMoney(s), [
    ['￥15000', 'CNY 15000'],
    ['¥15,000', 'CNY 15000'],
    ['15000元', 'CNY 15000'],
    ['$120,000', 'USD 120000'],
    ['US$ 99.50', 'USD 99.5'],
    ['HK$30,000/月', 'HKD 30000/month'],
    ['€45k-55k per year', 'EUR 45000-55000/year'],
    ['£20 an hour', 'GBP 20/hour'],
    ['$120k–$150k', 'USD 120000-150000'],
    ['1-1.5万元/月', 'CNY 10000-15000/month'],
    ['月薪 8千-1.2万 人民币', 'CNY 8000-12000/month'],
    ['年薪 30-50万', '300000-500000/year'],
    ['15-25k/月', '15000-25000/month'],
    ['15k~25k', '15000-25000'],
    ['5000-1.5万', '5000-15000'],
    ['300元/天', 'CNY 300/day'],
    ['20000 CNY', 'CNY 20000'],
    ['15K·13薪', '15000'],
    ['面议', undefined],
  ]);
  test('the default currency applies when the text names none', () => {
    assert.equal(parseMoney('15k-25k/月', 'CNY'), 'CNY 15000-25000/month');
    assert.equal(parseMoney('15k-25k', 'CNY'), 'CNY 15000-25000');
    assert.equal(parseMoney('$5', 'CNY'), 'USD 5');
  });
});

describe('typeValue', () => {
  test('each type, and the reasons', () => {
    assert.deepEqual(typeValue('string', ' x '), { value: ' x ' });
    assert.deepEqual(typeValue('number', '1.5万'), { value: '15000' });
    assert.deepEqual(typeValue('number', 'abc'), { reason: 'value "abc" is not a number' });
    assert.deepEqual(typeValue('date', '2024/1/5'), { value: '2024-01-05' });
    assert.deepEqual(typeValue('date', 'soon'), { reason: 'value "soon" is not a date' });
    assert.deepEqual(typeValue('money', '面议'), {
      reason: 'value "面议" is not an amount of money',
    });
    assert.deepEqual(typeValue('money', '15k', { currency: 'CNY' }), { value: 'CNY 15000' });
    const base = 'http://jobs.test/job/1';
    assert.deepEqual(typeValue('url', '../list/2?a=b#c', { baseUrl: base }), {
      value: 'http://jobs.test/list/2?a=b#c',
    });
    assert.deepEqual(typeValue('url', '//cdn.test/x.png', { baseUrl: base }), {
      value: 'http://cdn.test/x.png',
    });
    assert.deepEqual(typeValue('url', 'https://Example.TEST/a b'), {
      value: 'https://example.test/a%20b',
    });
    assert.deepEqual(typeValue('url', 'javascript:void(0)', { baseUrl: base }), {
      reason: 'value "javascript:void(0)" is not a URL',
    });
    assert.deepEqual(typeValue('url', 'http://[bad', { baseUrl: base }), {
      reason: 'value "http://[bad" is not a URL',
    });
    assert.match(
      (typeValue('number', 'x'.repeat(100)) as { reason: string }).reason,
      /x{57}…" is not/,
    );
  });

  test('collapseWhitespace keeps one line break per run that has one', () => {
    assert.equal(collapseWhitespace('  a \t b \r\n\n  c\u3000d  '), 'a b\nc d');
  });
});
