// Fetches the test web's charset hosts over 127.0.0.1 and decodes them with decodeBody.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { CHARSETS, charsetSample, startTestWeb, type TestWeb } from '../../testweb/index.js';
import { decodeBody } from './decode-body.js';

function get(port: number, host: string, path: string): Promise<{ body: Buffer; type?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const type = res.headers['content-type'];
          resolve(
            type === undefined
              ? { body: Buffer.concat(chunks) }
              : { body: Buffer.concat(chunks), type },
          );
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const SOURCE = { header: 'header', meta: 'meta', none: 'detected' } as const;
// GBK pages decode identically as gb18030; the detector names gbk when no four-byte sequences occur.
const SAME: Record<string, string> = { gb18030: 'gbk' };

describe('charset hosts of the test web', () => {
  let web: TestWeb;
  before(async () => {
    web = await startTestWeb({ port: 0 });
  });
  after(() => web.close());

  for (const cs of CHARSETS) {
    for (const decl of ['header', 'meta', 'none'] as const) {
      it(`${cs}-${decl}.test`, async () => {
        for (const n of [0, 1, 2, 3, 4, 5, 6, 7, 12]) {
          const { body, type } = await get(
            web.port,
            `${cs}-${decl}.test`,
            n === 0 ? '/' : `/page/${n}`,
          );
          const r = decodeBody(body, type);
          assert.ok(r.text.includes(charsetSample(cs, n)), `page ${n}: sample text missing`);
          assert.equal(r.source, SOURCE[decl], `page ${n}: source`);
          assert.ok(r.charset === cs || r.charset === SAME[cs], `page ${n}: charset ${r.charset}`);
        }
      });
    }
  }

  it('utf-8-bom.test', async () => {
    const { body, type } = await get(web.port, 'utf-8-bom.test', '/page/3');
    const r = decodeBody(body, type);
    assert.equal(r.source, 'bom');
    assert.ok(r.text.includes(charsetSample('utf-8', 3)));
  });
});
