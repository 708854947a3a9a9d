// Pages in GBK and Big5, decoded as a crawl decodes them (decodeBody), then extracted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import iconv from 'iconv-lite';
import { decodeBody } from '../fetch/charset/index.js';
import { extractPage, fieldValues, parseRules } from './index.js';

const rules = parseRules(
  `version: 1
ruleSets:
  - name: zh-jobs
    urls: ^http://zh\\.test/
    fields:
      title: { css: h1, required: true }
      company: { regex: "(?:公司|公司名稱)：(?<company>\\\\S+)" }
      salary: { css: .salary, type: money, currency: CNY }
      posted: { css: .date, type: date }
      description:
        between: { start: 职位描述, end: 申请这个职位 }
      descriptionTw:
        between: { start: 職位描述, end: 申請這個職位 }
`,
  'zh.yaml',
);

const page = (head: string, body: string) =>
  `<!DOCTYPE html><html><head>${head}<title>招聘</title></head><body>${body}</body></html>`;

test('a GBK page declared by <meta charset=gb2312>', () => {
  const html = page(
    '<meta charset="gb2312">',
    '<h1>数据分析师（喆）</h1><p>公司：杭州堃玥科技有限公司</p>' +
      '<p class="salary">薪资：1-1.5万/月</p><p class="date">发布：2023年12月17日</p>' +
      '<dl><dt>职位描述</dt><dd><p>负责数据分析；</p><p>熟悉 SQL。</p></dd></dl><a>申请这个职位</a>',
  );
  const decoded = decodeBody(iconv.encode(html, 'gbk'), 'text/html');
  assert.deepEqual([decoded.charset, decoded.source], ['gbk', 'meta']);
  const r = extractPage(rules, { url: 'http://zh.test/job/1', html: decoded.text }).matched[0]!;
  assert.deepEqual(fieldValues(r, 'title'), ['数据分析师（喆）']);
  assert.deepEqual(fieldValues(r, 'company'), ['杭州堃玥科技有限公司']);
  assert.deepEqual(fieldValues(r, 'salary'), ['CNY 10000-15000/month']);
  assert.deepEqual(fieldValues(r, 'posted'), ['2023-12-17']);
  assert.deepEqual(fieldValues(r, 'description'), ['负责数据分析；\n熟悉 SQL。']);
  assert.equal(
    r.fields.find((f) => f.name === 'descriptionTw')!.reason,
    'start marker "職位描述" not found',
  );
});

test('a Big5 page declared by the Content-Type header', () => {
  const html = page(
    '',
    '<h1>軟體工程師</h1><p>公司名稱：臺灣資訊股份有限公司</p>' +
      '<p class="salary">月薪 NT$45,000-60,000</p><p class="date">2024/1/5</p>' +
      '<div><h2>職位描述</h2><p>開發與維護網站系統。</p></div><p><a>申請這個職位</a></p>',
  );
  const decoded = decodeBody(iconv.encode(html, 'big5'), 'text/html; charset=big5');
  assert.deepEqual([decoded.charset, decoded.source], ['big5', 'header']);
  const r = extractPage(rules, { url: 'http://zh.test/job/2', html: decoded.text }).matched[0]!;
  assert.deepEqual(fieldValues(r, 'title'), ['軟體工程師']);
  assert.deepEqual(fieldValues(r, 'company'), ['臺灣資訊股份有限公司']);
  assert.deepEqual(fieldValues(r, 'salary'), ['TWD 45000-60000/month']);
  assert.deepEqual(fieldValues(r, 'posted'), ['2024-01-05']);
  assert.deepEqual(fieldValues(r, 'descriptionTw'), ['開發與維護網站系統。']);
  assert.equal(
    r.fields.find((f) => f.name === 'description')!.reason,
    'start marker "职位描述" not found',
  );
});

test('an undeclared GBK page: decodeBody detects it, extraction reads it', () => {
  const html = page(
    '',
    '<h1>会计</h1><p class="salary">薪资：5k-8k</p>' +
      '<p>职位描述</p><p>负责公司日常账务处理，编制财务报表，办理税务申报等工作。</p><p>申请这个职位</p>',
  );
  const decoded = decodeBody(iconv.encode(html, 'gbk'), 'text/html');
  assert.equal(decoded.charset, 'gbk');
  const r = extractPage(rules, { url: 'http://zh.test/job/3', html: decoded.text }).matched[0]!;
  assert.deepEqual(fieldValues(r, 'salary'), ['CNY 5000-8000']);
  assert.deepEqual(fieldValues(r, 'description'), [
    '负责公司日常账务处理，编制财务报表，办理税务申报等工作。',
  ]);
});
