import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sniffContent } from './sniff.js';

const b = (s: string | number[]) =>
  typeof s === 'string' ? Buffer.from(s, 'latin1') : Buffer.from(s);
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];

describe('sniffContent', () => {
  const cases: Array<[string, string | undefined, Buffer, string]> = [
    ['html header', 'text/html; charset=utf-8', b('anything'), 'html'],
    ['xhtml header', 'application/xhtml+xml', b('<?xml version="1.0"?><html>'), 'html'],
    ['pdf header', 'application/pdf', b('%PDF-1.7'), 'pdf'],
    ['image header', 'image/webp', b('RIFF'), 'image'],
    ['rss header', 'application/rss+xml', b('<rss>'), 'xml'],
    ['xml header', 'text/xml', b('<urlset>'), 'xml'],
    ['json header', 'application/json', b('{}'), 'text'],
    ['css header', 'text/css', b('body{}'), 'text'],
    ['zip header', 'application/zip', b('PK'), 'other'],
    ['no header, doctype', undefined, b('\n  <!DOCTYPE html><html>'), 'html'],
    ['no header, <html', undefined, b('<HTML><BODY>'), 'html'],
    ['no header, comment', undefined, b('<!-- x --><p>'), 'html'],
    ['no header, BOM + <p>', undefined, b([0xef, 0xbb, 0xbf, 0x3c, 0x70, 0x3e]), 'html'],
    [
      'no header, UTF-16LE <html>',
      undefined,
      Buffer.concat([b([0xff, 0xfe]), Buffer.from('<html>', 'utf16le')]),
      'html',
    ],
    ['no header, <abbr is not <a', undefined, b('<abbr>x</abbr>'), 'text'],
    ['no header, pdf', undefined, b('%PDF-1.4\n%\xe2\xe3'), 'pdf'],
    ['no header, png', undefined, b(PNG), 'image'],
    ['no header, jpeg', undefined, b([0xff, 0xd8, 0xff, 0xe0]), 'image'],
    ['no header, gif', undefined, b('GIF89a'), 'image'],
    ['no header, xml', undefined, b('<?xml version="1.0"?><rss version="2.0">'), 'xml'],
    ['no header, xhtml', undefined, b('<?xml version="1.0"?>\n<!DOCTYPE html><html>'), 'html'],
    ['no header, feed', undefined, b('<feed xmlns="http://www.w3.org/2005/Atom">'), 'xml'],
    ['octet-stream, pdf', 'application/octet-stream', b('%PDF-1.4'), 'pdf'],
    ['octet-stream, html', 'application/octet-stream', b('<!doctype html>'), 'html'],
    ['text/plain stays text', 'text/plain', b('<html>'), 'text'],
    ['text/plain with pdf bytes', 'text/plain', b('%PDF-1.4'), 'pdf'],
    ['no header, binary', undefined, b([0x00, 0x01, 0x02, 0x03]), 'other'],
    ['no header, plain text', undefined, b('hello world'), 'text'],
  ];
  for (const [name, ct, body, want] of cases) {
    it(`${name} → ${want}`, () => assert.equal(sniffContent(ct, body), want));
  }
});
