// HTTPS on the test web (certificates made at test time): --ca-file trust, certificate
// errors typed with their reason and not retried, HTTP→HTTPS redirects, and robots.txt
// per scheme. Every connection goes to the test web on 127.0.0.1.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rootCertificates } from 'node:tls';
import {
  FocusCrawlError,
  InvalidOptionError,
  RobotsDisallowedError,
  TlsCertError,
} from '../../src/errors/index.js';
import { tlsTrust } from '../../src/fetch/connect.js';
import { tlsCertReason, toFetchError } from '../../src/fetch/errors.js';
import { classifyFailure, describeFailure } from '../../src/fetch/failure-class.js';
import { startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { runCli } from '../run-cli.js';
import { makeTestCerts, type TestCerts } from './certs.js';
import { testFetcher, using } from './helpers.js';

const GOOD = ['moved.test', 'robots-rules.test', 'status.test', 'redirect.test'];
const SECURE_ONLY = ['moved.test', 'robots-rules.test'];

let certs: TestCerts;
let web: TestWeb;
const dir = tempDir('https');

before(async () => {
  certs = await makeTestCerts([...GOOD, 'expired.test', 'early.test', 'self.test']);
  web = await startTestWeb({
    tls: {
      ...certs.good,
      hosts: {
        'expired.test': certs.expired,
        'early.test': certs.notYetValid,
        'wrong.test': certs.wrongHost,
        'self.test': certs.selfSigned,
      },
    },
    httpsOnlyHosts: SECURE_ONLY,
  });
});
after(() => web.close());

/** Requests the web saw for `host` over TLS (true) or plain HTTP (false). */
function seen(host: string, tls: boolean): string[] {
  return web.requests
    .filter((r) => r.host === host && (r.tls === true) === tls)
    .map((r) => `${r.status} ${r.path}`);
}

const fetcher = (options = {}) =>
  testFetcher(web, { caFile: certs.caFile, retries: 2, ...options });

describe('--ca-file: the test CA trusted besides the bundled roots', () => {
  test('an https page of a host whose certificate the CA signed is fetched over TLS', async () => {
    web.clearLog();
    await using(fetcher(), async (f) => {
      const r = await f.fetch('https://moved.test/page-3');
      assert.equal(r.status, 200);
      assert.match(r.body.toString(), /Page 3 of moved\.test/);
      assert.equal(r.finalUrl, 'https://moved.test/page-3');
    });
    assert.deepEqual(seen('moved.test', true), ['404 /robots.txt', '200 /page-3']);
    assert.deepEqual(seen('moved.test', false), []);
  });

  test('the bundled roots stay trusted: the CA file adds to them', () => {
    const { ca } = tlsTrust(certs.caFile);
    assert.equal(ca?.length, rootCertificates.length + 1);
    assert.ok(ca?.includes(certs.ca.cert.trim()) || ca?.includes(certs.ca.cert));
    assert.deepEqual(tlsTrust(undefined), {});
  });

  test('a CA file that is missing, or holds no certificate, is refused naming the file', () => {
    const missing = join(dir, 'nope.pem');
    assert.throws(
      () => fetcher({ caFile: missing }),
      (e: Error) =>
        e instanceof InvalidOptionError && e.message.includes(missing) && /ENOENT/.test(e.message),
    );
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'not a certificate\n');
    assert.throws(
      () => fetcher({ caFile: empty }),
      (e: Error) =>
        e instanceof InvalidOptionError &&
        e.message.includes(empty) &&
        /no PEM certificate/.test(e.message),
    );
    const broken = join(dir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    assert.throws(
      () => fetcher({ caFile: broken }),
      (e: Error) =>
        e instanceof InvalidOptionError && /certificate 1 .* is malformed/.test(e.message),
    );
  });
});

describe('certificate errors: typed, with their reason, not retried', () => {
  const cases: Array<[name: string, url: string, reason: string, options?: object]> = [
    [
      'no CA file: unknown authority',
      'https://status.test/',
      'unknown-authority',
      { caFile: undefined },
    ],
    ['expired', 'https://expired.test/', 'expired'],
    ['not yet valid', 'https://early.test/', 'not-yet-valid'],
    ['for another host', 'https://wrong.test/', 'wrong-host'],
    ['self-signed', 'https://self.test/', 'self-signed'],
  ];
  for (const [name, url, reason, options] of cases) {
    test(`${name} → FC_ERR_TLS_CERT (reason: ${reason})`, async () => {
      for (const skipRobots of [true, false]) {
        await using(fetcher(options), async (f) => {
          await assert.rejects(f.fetch(url, { skipRobots }), (e: Error) => {
            assert.ok(e instanceof TlsCertError, `${e.name}: ${e.message}`);
            assert.equal(e.code, 'FC_ERR_TLS_CERT');
            assert.equal(e.reason, reason);
            assert.equal(e.retryable, false);
            assert.match(e.message, new RegExp(`\\(reason: ${reason}\\)`));
            return true;
          });
          // One try, no retry (retries: 2), with or without robots.txt first.
          assert.equal(f.stats().retries, 0, `skipRobots ${skipRobots}`);
          assert.equal(f.stats().requests, 1, `skipRobots ${skipRobots}`);
        });
      }
    });
  }

  test('the reason survives as text (the store, a thread boundary)', () => {
    const e = new TlsCertError('https://a.test/: TLS certificate rejected (reason: wrong-host): x');
    assert.equal(e.reason, 'wrong-host');
    assert.equal(new TlsCertError('no reason given').reason, 'other');
    assert.ok(e instanceof FocusCrawlError);
  });

  test('inspect shows the code and the reason', async () => {
    const r = await runCli(
      'inspect',
      'https://expired.test/',
      '--resolve',
      web.resolve,
      '--ca-file',
      certs.caFile,
      '--delay-ms',
      '0',
    );
    assert.equal(r.code, 1, r.err);
    assert.match(r.out + r.err, /FC_ERR_TLS_CERT: .*\(reason: expired\)/);
  });

  test('inspect --ca-file with a missing file names the flag and the file', async () => {
    const missing = join(dir, 'missing-ca.pem');
    const r = await runCli('inspect', 'https://status.test/', '--ca-file', missing);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /--ca-file/);
    assert.ok(r.err.includes(missing), r.err);
  });
});

describe('HTTP → HTTPS', () => {
  test('an http:// URL of an HTTPS-only host is followed to https://, the target fetched once', async () => {
    web.clearLog();
    await using(fetcher(), async (f) => {
      const r = await f.fetch('http://moved.test/page-5');
      assert.equal(r.status, 200);
      assert.equal(r.url, 'http://moved.test/page-5');
      assert.equal(r.finalUrl, 'https://moved.test/page-5');
      assert.deepEqual(
        r.redirects.map((h) => [h.status, h.url]),
        [[301, 'http://moved.test/page-5']],
      );
    });
    assert.deepEqual(seen('moved.test', false), ['200 /robots.txt', '301 /page-5']);
    assert.deepEqual(seen('moved.test', true), ['404 /robots.txt', '200 /page-5']);
  });

  test("the https origin's robots.txt governs https URLs, the http one's http URLs", async () => {
    web.clearLog();
    await using(fetcher(), async (f) => {
      // http robots.txt allows everything; the https one disallows /private/ for focuscrawl.
      await assert.rejects(
        f.fetch('http://robots-rules.test/private/secret'),
        (e: Error) => e instanceof RobotsDisallowedError,
      );
      const open = await f.fetch('http://robots-rules.test/private/open');
      assert.equal(open.finalUrl, 'https://robots-rules.test/private/open');
      assert.equal(open.status, 200);
      const v = await f.robotsFor('https://robots-rules.test/private/secret');
      assert.equal(v.allowed, false);
      assert.equal((await f.robotsFor('http://robots-rules.test/private/secret')).allowed, true);
    });
    // The disallowed page was asked for over plain HTTP only (a 301), never over TLS.
    assert.ok(!seen('robots-rules.test', true).some((s) => s.endsWith('/private/secret')));
    assert.equal(
      seen('robots-rules.test', true).filter((s) => s.endsWith('/robots.txt')).length,
      1,
    );
    assert.equal(
      seen('robots-rules.test', false).filter((s) => s.endsWith('/robots.txt')).length,
      1,
    );
  });

  test('a host serving both schemes answers each over its own', async () => {
    web.clearLog();
    await using(fetcher(), async (f) => {
      const plain = await f.fetch('http://status.test/', { skipRobots: true });
      const secure = await f.fetch('https://status.test/', { skipRobots: true });
      assert.equal(plain.finalUrl, 'http://status.test/');
      assert.equal(secure.finalUrl, 'https://status.test/');
      assert.equal(plain.status, secure.status);
      assert.deepEqual(plain.body, secure.body);
    });
    assert.equal(seen('status.test', true).length, 1);
    assert.equal(seen('status.test', false).length, 1);
  });
});

describe('TLS error codes → FC_ERR_TLS_CERT and its reason', () => {
  const T = { connectTimeoutMs: 1, firstByteTimeoutMs: 1, totalTimeoutMs: 1 };
  const cases: Array<[string, string]> = [
    ['CERT_HAS_EXPIRED', 'expired'],
    ['CERT_NOT_YET_VALID', 'not-yet-valid'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'wrong-host'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unknown-authority'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'unknown-authority'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed'],
    ['CERT_REVOKED', 'revoked'],
    ['CERT_SIGNATURE_FAILURE', 'other'],
  ];
  test('each code maps to its reason, permanent and not retryable', () => {
    for (const [code, reason] of cases) {
      const cause = Object.assign(new Error('certificate problem'), { code });
      const e = toFetchError(cause, 'https://a.test/', T);
      assert.ok(e instanceof TlsCertError, code);
      assert.equal(e.reason, reason, code);
      assert.equal(e.retryable, false);
      assert.equal(e.cause, cause);
      const info = classifyFailure({ error: `${e.code}: ${e.message}`, status: null });
      assert.deepEqual([info.class, info.kind, info.code], ['permanent', 'tls', 'FC_ERR_TLS_CERT']);
    }
    assert.match(describeFailure('tls', 'FC_ERR_TLS_CERT', ['a.test']), /certificate of a\.test/);
  });
  test('other connection errors stay network errors', () => {
    for (const code of ['ECONNRESET', 'EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER']) {
      assert.equal(tlsCertReason(code), undefined);
      const e = toFetchError(Object.assign(new Error('x'), { code }), 'https://a.test/', T);
      assert.equal(e.code, 'FC_ERR_NETWORK', code);
    }
  });
});
