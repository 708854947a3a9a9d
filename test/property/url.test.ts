// Properties of the URL canonicaliser (src/url/canonicalize.ts), checked by fast-check
// on generated input. A failure prints the seed and the shrunk counterexample.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import { InvalidUrlError } from '../../src/errors/index.js';
import { canonicalizeUrl, canonicalizeUrlOrThrow } from '../../src/url/index.js';

const RUNS = 400;

/** Characters that matter to URL parsing, with arbitrary code points besides. */
const urlChar = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...'%/?#.:@[]\\ \t\n&=+;~-_!$\'()*,|^`{}<>"') },
  { weight: 3, arbitrary: fc.constantFrom(...'0123456789abcdefABCDEFxyzXYZ') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const urlish = fc.array(urlChar, { maxLength: 40 }).map((a) => a.join(''));

/** A percent escape, well-formed or not, in either case. */
const pctEscape = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.boolean(), fc.boolean())
  .map(([v, lower, broken]) => {
    const hex = v.toString(16).padStart(2, '0');
    const e = `%${lower ? hex : hex.toUpperCase()}`;
    return broken ? e.slice(0, 2) : e;
  });
const pathPiece = fc.oneof(
  urlish,
  pctEscape,
  fc.constantFrom('/', '.', '..', '/./', '/../', '%2e', '%2E%2e', 'index.html', 'index.htm'),
);
const path = fc.array(pathPiece, { maxLength: 8 }).map((a) => `/${a.join('')}`);

/** A host name: ASCII or Unicode labels in mixed case. */
const label = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9]([a-zA-Z0-9-]{0,10}[a-zA-Z0-9])?$/),
  fc.constantFrom('bücher', 'Straße', '中文', 'пример', 'ελληνικά', 'ÉCOLE', 'café'),
);
const host = fc
  .array(label, { minLength: 1, maxLength: 4 })
  .map((ls) => [...ls, 'example'].join('.'))
  .filter((h) => domainToASCII(h) !== '');

const scheme = fc.constantFrom('http', 'https', 'HTTP', 'Https');
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
const query = fc.option(
  fc.array(fc.oneof(urlish, pctEscape), { maxLength: 4 }).map((a) => `?${a.join('')}`),
  { nil: '' },
);
const fragment = fc.option(
  urlish.map((s) => `#${s}`),
  { nil: '' },
);

const httpUrl = fc.record({ scheme, host, port, path, query, fragment }).map((p) => ({
  ...p,
  url: `${p.scheme}://${p.host}${p.port === undefined ? '' : `:${p.port}`}${p.path}${p.query}${p.fragment}`,
}));

const anyString = fc.oneof(
  fc.string({ unit: 'binary' }),
  urlish,
  httpUrl.map((u) => u.url),
);
const base = fc.option(
  fc.oneof(
    httpUrl.map((u) => u.url),
    fc.constantFrom('http://example.com/a/b', 'not a base'),
  ),
  { nil: undefined },
);

describe('URL canonicaliser: properties', () => {
  test('never throws on any string, with or without a base; gives a string or null', () => {
    fc.assert(
      fc.property(anyString, base, (input, b) => {
        const out = canonicalizeUrl(input, b);
        assert.ok(out === null || typeof out === 'string');
      }),
      { numRuns: RUNS },
    );
  });

  test('canonicalizeUrlOrThrow rejects with InvalidUrlError only, and agrees with canonicalizeUrl', () => {
    fc.assert(
      fc.property(anyString, base, (input, b) => {
        let out: string | undefined;
        try {
          out = canonicalizeUrlOrThrow(input, b);
        } catch (e) {
          assert.ok(e instanceof InvalidUrlError, `unexpected ${String(e)}`);
          assert.equal(e.code, 'FC_ERR_INVALID_URL');
        }
        if (out !== undefined) assert.equal(out, canonicalizeUrl(input, b));
      }),
      { numRuns: RUNS },
    );
  });

  test('is idempotent: canon(canon(u)) = canon(u)', () => {
    fc.assert(
      fc.property(anyString, base, (input, b) => {
        const once = canonicalizeUrl(input, b);
        if (once !== null) assert.equal(canonicalizeUrl(once), once);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test('a canonical path has no . or .. segment', () => {
    fc.assert(
      fc.property(anyString, base, (input, b) => {
        const out = canonicalizeUrl(input, b);
        if (out === null) return;
        const segments = new URL(out).pathname.split('/');
        assert.ok(!segments.includes('.') && !segments.includes('..'), out);
      }),
      { numRuns: RUNS },
    );
  });

  test('keeps the host of an http(s) URL (lower-cased, IDNA), drops the default port', () => {
    fc.assert(
      fc.property(httpUrl, (u) => {
        const out = canonicalizeUrl(u.url);
        assert.ok(out !== null, u.url);
        const parsed = new URL(out);
        assert.equal(parsed.hostname, domainToASCII(u.host));
        assert.equal(parsed.hostname, parsed.hostname.toLowerCase());
        assert.equal(parsed.protocol, `${u.scheme.toLowerCase()}:`);
        const defaultPort = parsed.protocol === 'http:' ? 80 : 443;
        const wantPort = u.port === undefined || u.port === defaultPort ? '' : String(u.port);
        assert.equal(parsed.port, wantPort);
        assert.equal(parsed.hash, '');
        assert.ok(!out.includes('#'), out);
      }),
      { numRuns: RUNS },
    );
  });

  test('keeps escapes as escapes: decoding unreserved ones never makes a new escape', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(pctEscape, fc.constantFrom('%', 'a', 'F', '1')), { maxLength: 10 }),
        (parts) => {
          const url = `http://example.com/${parts.join('')}`;
          const once = canonicalizeUrl(url);
          assert.ok(once !== null);
          // The bytes a server decodes from the path are the same before and after.
          const bytes = (s: string) =>
            Buffer.from(
              s.replace(/%([0-9A-Fa-f]{2})|(.)/gsu, (m, hex: string | undefined) =>
                hex === undefined ? m : String.fromCharCode(Number.parseInt(hex, 16)),
              ),
              'latin1',
            ).toString('hex');
          assert.equal(bytes(new URL(once).pathname), bytes(new URL(url).pathname), url);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
