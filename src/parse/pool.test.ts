import assert from 'node:assert/strict';
import { test } from 'node:test';
import iconv from 'iconv-lite';
import { analyzeBody } from './analyze.js';
import { createParsePool } from './pool.js';

const html = (n: number) =>
  `<html lang="zh"><head><title>页面 ${n}</title></head><body><p>关于<a href="/p/${n + 1}">下一页</a>的说明</p></body></html>`;

test('the pool gives the same result as analyzeBody on the main thread, in order of the requests', async () => {
  const pool = createParsePool({ workers: 2 });
  try {
    const bodies = Array.from({ length: 40 }, (_, n) => iconv.encode(html(n), 'gbk'));
    const results = await Promise.all(
      bodies.map((b, n) => pool.analyze(b, 'text/html; charset=gbk', `http://a.test/p/${n}`)),
    );
    results.forEach((r, n) => {
      const local = analyzeBody(
        bodies[n] as Buffer,
        'text/html; charset=gbk',
        `http://a.test/p/${n}`,
      );
      assert.deepEqual(r, local);
      assert.equal(r.page?.title, `页面 ${n}`);
      assert.equal(r.page?.links[0]?.url, `http://a.test/p/${n + 1}`);
      assert.equal(r.charset, 'gbk');
    });
    assert.equal(pool.pending, 0);
  } finally {
    await pool.close();
  }
});

test('non-HTML content is classified and not parsed; the caller keeps its buffer unless transfer is asked', async () => {
  const pool = createParsePool({ workers: 1 });
  try {
    const pdf = Buffer.from('%PDF-1.4\n...');
    const r = await pool.analyze(pdf, 'application/pdf', 'http://a.test/x.pdf');
    assert.equal(r.content, 'pdf');
    assert.equal(r.page, undefined);
    assert.equal(pdf.toString('latin1', 0, 4), '%PDF');
  } finally {
    await pool.close();
  }
  const transferring = createParsePool({ workers: 1, transfer: true });
  try {
    const body = Buffer.from(new Uint8Array(Buffer.from('<title>t</title>'.repeat(300))).buffer);
    const r = await transferring.analyze(body, 'text/html', 'http://a.test/');
    assert.equal(r.page?.title, 't');
    assert.equal(body.byteLength, 0, 'the body was handed over');
  } finally {
    await transferring.close();
  }
});

test('a closed pool refuses work with a typed error; bad options are named', async () => {
  const pool = createParsePool({ workers: 1 });
  await pool.close();
  await assert.rejects(pool.analyze(Buffer.from('x'), 'text/html', 'http://a.test/'), {
    code: 'FC_ERR_ABORTED',
  });
  assert.throws(() => createParsePool({ workers: 0 }), /parse pool: workers/);
  assert.throws(() => createParsePool({ wokers: 2 } as never), { code: 'FC_ERR_INVALID_OPTION' });
});

test('an invalid page URL comes back as the typed error from the worker', async () => {
  const pool = createParsePool({ workers: 1 });
  try {
    await assert.rejects(pool.analyze(Buffer.from('<p>x</p>'), 'text/html', 'not a url'), {
      code: 'FC_ERR_INVALID_URL',
    });
  } finally {
    await pool.close();
  }
});
