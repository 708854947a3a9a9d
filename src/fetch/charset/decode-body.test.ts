import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { InvalidOptionError } from '../../errors/index.js';
import { decodeBody } from './decode-body.js';

const ZH = '本市今年第一季度的经济运行总体平稳，工业生产和居民消费都保持了增长。';
const page = (head: string, body: string) =>
  `<!DOCTYPE html><html><head>${head}<title>t</title></head><body><p>${body}</p></body></html>`;

describe('decodeBody: where the charset comes from', () => {
  it('a UTF-8 BOM wins over the header', () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(page('', ZH), 'utf8'),
    ]);
    const r = decodeBody(body, 'text/html; charset=gbk');
    assert.deepEqual([r.charset, r.source], ['utf-8', 'bom']);
    assert.ok(r.text.startsWith('<!DOCTYPE'), 'BOM stripped');
    assert.ok(r.text.includes(ZH));
  });

  it('UTF-16 BOMs', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page('', ZH), 'utf16le')]);
    assert.deepEqual(pick(decodeBody(le, undefined)), ['utf-16le', 'bom', true]);
    const be = Buffer.from(le).swap16();
    assert.deepEqual(pick(decodeBody(be, undefined)), ['utf-16be', 'bom', true]);
  });

  it('the header charset, with its label normalised', () => {
    const r = decodeBody(
      iconv.encode(page('<meta charset="big5">', ZH), 'gbk'),
      'text/html; charset=GB2312',
    );
    assert.deepEqual(pick(r), ['gbk', 'header', true]);
  });

  it('an unknown or replacement header label falls through to the meta', () => {
    const body = iconv.encode(page('<meta charset="gb2312">', ZH), 'gbk');
    assert.deepEqual(pick(decodeBody(body, 'text/html; charset=klingon')), ['gbk', 'meta', true]);
    assert.deepEqual(pick(decodeBody(body, 'text/html; charset=iso-2022-kr')), [
      'gbk',
      'meta',
      true,
    ]);
  });

  it('meta http-equiv', () => {
    const body = iconv.encode(
      page('<meta http-equiv="Content-Type" content="text/html; charset=gbk">', ZH),
      'gbk',
    );
    assert.deepEqual(pick(decodeBody(body, 'text/html')), ['gbk', 'meta', true]);
  });

  it('a meta after `prescanBytes` is not seen', () => {
    const body = iconv.encode(page(`<!-- ${'-'.repeat(2000)} --><meta charset="big5">`, ZH), 'gbk');
    assert.equal(decodeBody(body, undefined).source, 'detected');
    assert.equal(decodeBody(body, undefined, { prescanBytes: 4096 }).charset, 'big5');
  });

  it('no declaration: detected', () => {
    const r = decodeBody(iconv.encode(page('', ZH), 'gbk'), 'text/html');
    assert.deepEqual(pick(r), ['gbk', 'detected', true]);
    assert.ok(r.confidence !== undefined && r.confidence > 0.3);
  });

  it('valid UTF-8 cut in the middle of a character (byte cap) is detected as UTF-8', () => {
    const full = Buffer.from(page('', ZH), 'utf8');
    const cut = full.subarray(0, full.indexOf(Buffer.from('经', 'utf8')) + 2);
    const r = decodeBody(cut, undefined);
    assert.deepEqual([r.charset, r.source], ['utf-8', 'detected']);
  });

  it('pure ASCII: default, utf-8', () => {
    const r = decodeBody(Buffer.from(page('', 'plain')), undefined);
    assert.deepEqual([r.charset, r.source, r.confidence], ['utf-8', 'default', undefined]);
  });

  it('detection off: windows-1252 by default, or the configured default', () => {
    const body = iconv.encode(page('', ZH), 'gbk');
    assert.deepEqual(pick(decodeBody(body, undefined, { detect: false })), [
      'windows-1252',
      'default',
      false,
    ]);
    assert.deepEqual(
      pick(decodeBody(body, undefined, { detect: false, defaultCharset: 'gb2312' })),
      ['gbk', 'default', true],
    );
  });

  it('forceCharset overrides everything', () => {
    const body = iconv.encode(page('<meta charset="big5">', ZH), 'gbk');
    assert.deepEqual(pick(decodeBody(body, 'text/html; charset=utf-8', { forceCharset: 'gbk' })), [
      'gbk',
      'forced',
      true,
    ]);
  });

  it('rejects malformed options, naming the option', () => {
    assert.throws(
      () => decodeBody(Buffer.from('x'), undefined, { defaultCharset: 'klingon' }),
      (e: unknown) => e instanceof InvalidOptionError && /defaultCharset/.test(e.message),
    );
    assert.throws(
      () => decodeBody(Buffer.from('x'), undefined, { prescanBytes: -1 }),
      (e: unknown) => e instanceof InvalidOptionError && /prescanBytes/.test(e.message),
    );
    assert.throws(
      () => decodeBody(Buffer.from('x'), undefined, { bogus: 1 } as never),
      InvalidOptionError,
    );
  });
});

function pick(r: ReturnType<typeof decodeBody>): [string, string, boolean] {
  return [r.charset, r.source, r.text.includes(ZH)];
}
