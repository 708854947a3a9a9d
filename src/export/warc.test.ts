import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { WARCParser, type WARCRecord } from 'warcio';
import { createMemoryStore, openStore, type Store } from '../store/index.js';
import { tempDir } from '../util/testing.js';
import { buildRecordStore } from './__fixtures__/records.js';
import { base32, exportChunks, exportStore, exportToFile, WARC_USER_AGENT } from './index.js';
import { SAMPLE, T0 } from './testing.js';

/** RFC 4648 base32, decoded (independent of the encoder under test). */
function unbase32(s: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let acc = 0;
  const out: number[] = [];
  for (const ch of s.replace(/=+$/, '')) {
    const v = alphabet.indexOf(ch);
    assert.ok(v >= 0, `not base32: ${ch}`);
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** Checks a `sha1:BASE32` digest against the bytes. */
function assertDigest(digest: string | null | undefined, bytes: Uint8Array, what: string) {
  assert.match(digest ?? '', /^sha1:[A-Z2-7]{32}$/, what);
  const sha1 = createHash('sha1').update(bytes).digest();
  assert.deepEqual(unbase32((digest as string).slice(5)), sha1, what);
}

interface Read {
  record: WARCRecord;
  /** The whole block (parsed without HTTP). */
  block: Uint8Array;
  offset: number;
  length: number;
}

/** Every record of a WARC file, read by warcio without HTTP parsing. */
async function readRaw(file: string): Promise<Read[]> {
  const parser = new WARCParser([readFileSync(file)], { parseHttp: false });
  const out: Read[] = [];
  for await (const record of parser) {
    const block = await record.readFully();
    out.push({ record, block, offset: parser.offset, length: parser.recordLength });
  }
  return out;
}

const outFile = (name: string) => join(tempDir('warc'), name);

test('base32 follows RFC 4648', () => {
  const vectors = ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'];
  const want = ['', 'MY======', 'MZXQ====', 'MZXW6===', 'MZXW6YQ=', 'MZXW6YTB', 'MZXW6YTBOI======'];
  assert.deepEqual(
    vectors.map((v) => base32(Buffer.from(v))),
    want,
  );
  // the digest of an empty payload, as every WARC tool writes it
  const empty = base32(createHash('sha1').update('').digest());
  assert.equal(empty, '3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ');
});

test('pages as WARC: warcinfo, then a request and a response per stored page, digests that verify', async () => {
  const dir = await buildRecordStore();
  const store = await openStore(dir, { readonly: true });
  const file = outFile('crawl.warc.gz');
  try {
    const { rows } = await exportToFile(
      store,
      { what: 'pages', format: 'warc', source: dir },
      file,
    );
    assert.equal(rows, 3);
    const raw = await readRaw(file);
    assert.deepEqual(
      raw.map((r) => [r.record.warcType, r.record.warcTargetURI ?? null]),
      [
        ['warcinfo', null],
        ['request', SAMPLE.home],
        ['response', SAMPLE.home],
        ['request', SAMPLE.p1],
        ['response', SAMPLE.p1],
        ['request', SAMPLE.p2],
        ['response', SAMPLE.p2],
      ],
    );
    const bytes = readFileSync(file);
    const ids = new Set<string>();
    for (const { record, block, offset, length } of raw) {
      // each record is one gzip member of its own
      const member = gunzipSync(bytes.subarray(offset, offset + length));
      assert.ok(member.subarray(0, 10).toString() === 'WARC/1.1\r\n', record.warcType);
      assert.equal(member.length, member.indexOf('\r\n\r\n') + 4 + block.length + 4);
      const id = record.warcHeader('WARC-Record-ID') ?? '';
      assert.match(id, /^<urn:uuid:[0-9a-f-]{36}>$/);
      ids.add(id);
      assert.equal(record.warcContentLength, block.length);
      if (record.warcType !== 'warcinfo') {
        assertDigest(record.warcBlockDigest, block, `${record.warcType} block`);
      }
    }
    assert.equal(ids.size, raw.length);
    const [info, ...pages] = raw as [Read, ...Read[]];
    assert.equal(info.record.warcContentType, 'application/warc-fields');
    const fields = Buffer.from(info.block).toString('utf8');
    assert.match(fields, /^software: focuscrawl\/\d+\.\d+\.\d+\r\n/);
    assert.match(fields, /\r\nformat: WARC File Format 1\.1\r\n/);
    assert.ok(fields.includes(`\r\nfocuscrawl-store: ${dir}\r\n`));
    assert.ok(fields.includes('\r\nfocuscrawl-topic: 电网\r\n'));
    for (let i = 0; i < pages.length; i += 2) {
      const req = pages[i] as Read;
      const res = pages[i + 1] as Read;
      const url = res.record.warcTargetURI as string;
      assert.deepEqual(req.record.warcConcurrentTo, [res.record.warcHeader('WARC-Record-ID')]);
      assert.deepEqual(res.record.warcConcurrentTo, [req.record.warcHeader('WARC-Record-ID')]);
      assert.equal(
        req.record.warcHeader('WARC-Warcinfo-ID'),
        info.record.warcHeader('WARC-Record-ID'),
      );
      assert.equal(req.record.warcContentType, 'application/http;msgtype=request');
      assert.equal(res.record.warcContentType, 'application/http;msgtype=response');
      assert.equal(req.record.warcDate, res.record.warcDate);
      const body = (await store.readBody(url)) as Buffer;
      assertDigest(res.record.warcPayloadDigest, body, 'payload');
      const path = new URL(url).pathname;
      assert.equal(
        Buffer.from(req.block).toString(),
        `GET ${path} HTTP/1.1\r\nHost: a.test\r\nUser-Agent: ${WARC_USER_AGENT}\r\n\r\n`,
      );
    }
    assert.equal(pages[1]?.record.warcDate, '2024-05-01T12:00:00Z');
    assert.equal(pages[3]?.record.warcDate, '2024-05-01T12:00:01Z');
  } finally {
    await store.close();
  }
});

test('warcio reads the HTTP responses: status, reconstructed headers, the exact body', async () => {
  const store = createMemoryStore();
  const kept = 'http://w.test/a?q=1';
  const bare = 'http://w.test:8080/no-body';
  const body = Buffer.concat([Buffer.from('<p>显示器 😀</p>'), Buffer.from([0, 255, 13, 10])]);
  await store.addSeeds([kept, bare]);
  await store.claim(2);
  await store.complete(kept, {
    fetchedAt: T0 + 1234,
    status: 203,
    contentType: 'text/html; charset=utf-8',
    bytes: body.length,
    relevance: 0.5,
    body,
    etag: '"v1"',
    lastModified: 'Wed, 01 May 2024 10:00:00 GMT',
  });
  await store.complete(bare, { fetchedAt: T0, status: 200, bytes: 10, relevance: 0.5 });
  const file = outFile('w.warc.gz');
  const { rows } = await exportToFile(store, { what: 'pages', format: 'warc' }, file);
  assert.equal(rows, 1, 'a page without a stored body has no records');
  const records: {
    type: string;
    status?: string | number | undefined;
    headers?: Record<string, string>;
    payload: Buffer;
  }[] = [];
  for await (const record of new WARCParser([readFileSync(file)])) {
    const info = record.getResponseInfo();
    const headers: Record<string, string> = {};
    if (record.httpHeaders)
      for (const [k, v] of record.httpHeaders.headers) headers[k.toLowerCase()] = v;
    records.push({
      type: record.warcType,
      status: info?.status,
      headers,
      payload: Buffer.from(await record.readFully(true)),
    });
  }
  assert.deepEqual(
    records.map((r) => r.type),
    ['warcinfo', 'request', 'response'],
  );
  const res = records[2];
  assert.equal(Number(res?.status), 203);
  assert.deepEqual(res?.headers, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(body.length),
    etag: '"v1"',
    'last-modified': 'Wed, 01 May 2024 10:00:00 GMT',
  });
  assert.deepEqual(res?.payload, body);
  assert.equal(records[1]?.headers?.['host'], 'w.test');
});

test('WARC output is binary: exportStore hands Buffers, exportLines refuses it, other tables are refused', async () => {
  const store: Store = createMemoryStore();
  const chunks: (string | Buffer)[] = [];
  await exportStore(store, { what: 'pages', format: 'warc' }, (c) => {
    chunks.push(c);
  });
  assert.ok(chunks.length === 1 && Buffer.isBuffer(chunks[0]));
  assert.equal(
    gunzipSync(chunks[0] as Buffer)
      .subarray(0, 8)
      .toString(),
    'WARC/1.1',
  );
  for await (const c of exportChunks(store, { what: 'pages', format: 'warc' })) {
    assert.ok(Buffer.isBuffer(c));
  }
  await assert.rejects(
    exportStore(store, { what: 'records', format: 'warc' }, () => {}),
    {
      code: 'FC_ERR_INVALID_OPTION',
      message: /what: format "warc" writes the stored pages/,
    },
  );
});
