// Properties of the sitemap parser (src/discover/sitemap-parse.ts): it throws only its
// typed errors on any input, and on generated valid sitemaps returns exactly the URLs
// written, as saxes (a conforming XML parser) reads them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { parseSitemap } from '../../src/discover/sitemap-parse.js';
import { SitemapError, SitemapTooLargeError } from '../../src/errors/index.js';

const RUNS = 300;
const URL_ = 'http://site.test/sitemap.xml';

function parseOrTypedError(bytes: Uint8Array, truncated = false): void {
  try {
    const out = parseSitemap(bytes, { url: URL_, truncated, maxBytes: 1 << 20 });
    assert.ok(Array.isArray(out.urls) && Array.isArray(out.sitemaps));
  } catch (e) {
    assert.ok(
      e instanceof SitemapError || e instanceof SitemapTooLargeError,
      `not a typed error: ${String(e)}`,
    );
    assert.ok(e.message.includes(URL_), e.message);
  }
}

// ---- generated sitemaps ----

/** A URL as written, and the ways to write each of its characters in XML. */
const urlChar = fc.constantFrom(...'abcxyz019-._~/?=&%;:@!$()*+,\'"<>');
const httpUrl = fc
  .tuple(
    fc.constantFrom('http', 'https', 'HTTP'),
    fc.constantFrom('site.test', 'a.example', 'xn--bcher-kva.example', '127.0.0.1:8080'),
    fc.array(urlChar, { maxLength: 30 }),
  )
  .map(([s, h, p]) => `${s}://${h}/${p.join('')}`);

const XML_ESCAPES: Record<string, string[]> = {
  '&': ['&amp;', '&#38;', '&#x26;'],
  '<': ['&lt;', '&#60;'],
  '>': ['&gt;', '>'],
  '"': ['&quot;', '"'],
  "'": ['&apos;', "'"],
};

/** Writes `url` as the text of an element: escapes, character references, CDATA pieces. */
const written = (url: string) =>
  fc
    .tuple(
      fc.array(fc.nat(), { minLength: url.length, maxLength: url.length }),
      fc.array(fc.nat({ max: 6 }), { minLength: url.length, maxLength: url.length }),
      fc.constantFrom('', ' ', '\n  ', '\r\n\t'),
      fc.constantFrom('', ' ', '\n', '\t \n'),
    )
    .map(([choice, mode, lead, trail]) => {
      let out = lead;
      let cdata = '';
      const flush = () => {
        if (cdata !== '') out += `<![CDATA[${cdata}]]>`;
        cdata = '';
      };
      for (let i = 0; i < url.length; i++) {
        const ch = url[i]!;
        // Mode 0: CDATA (any character but the sequence ]]>, absent from URLs here).
        if (mode[i] === 0) {
          cdata += ch;
          continue;
        }
        flush();
        const escapes = XML_ESCAPES[ch];
        if (escapes !== undefined) out += escapes[choice[i]! % escapes.length];
        else if (mode[i] === 1) out += `&#${ch.charCodeAt(0)};`;
        else if (mode[i] === 2) out += `&#x${ch.charCodeAt(0).toString(16)};`;
        else out += ch;
      }
      flush();
      return out + trail;
    });

const ws = fc.constantFrom('', '\n', '\n  ', ' ', '\r\n');
const comment = fc.constantFrom(
  '',
  '<!-- a comment with <loc>http://no.test/</loc> -->',
  '<?pi x?>',
);
const prefix = fc.constantFrom('', 'sm:', 'SM:');
const extension = fc.constantFrom(
  '',
  '<image:image><image:loc>http://image.test/i.png</image:loc></image:image>',
  '<xhtml:link rel="alternate" href="http://alt.test/>x"/>',
  '<news:news><news:title>t &amp; u</news:title></news:news>',
);
const fieldsAfter = fc.constantFrom(
  '',
  '<lastmod>2024-05-01</lastmod>',
  '<changefreq>weekly</changefreq><priority>0.5</priority>',
  '<lastmod>not a date</lastmod>',
);

const entry = (kind: 'url' | 'sitemap', p: string) =>
  httpUrl.chain((url) =>
    fc
      .tuple(written(url), ws, comment, extension, fieldsAfter, fc.boolean())
      .map(([loc, w, c, ext, fields, extFirst]) => ({
        url,
        xml: `${w}<${p}${kind}>${w}${extFirst ? ext : ''}${c}<${p}loc>${loc}</${p}loc>${extFirst ? '' : ext}${kind === 'url' ? fields : ''}${w}</${p}${kind}>`,
      })),
  );

const sitemap = fc.constantFrom('url' as const, 'sitemap' as const).chain((kind) =>
  prefix.chain((p) =>
    fc
      .tuple(fc.array(entry(kind, p), { maxLength: 8 }), fc.boolean(), ws, comment)
      .map(([entries, decl, w, c]) => {
        const root = kind === 'url' ? 'urlset' : 'sitemapindex';
        const ns = p === '' ? 'xmlns' : `xmlns:${p.slice(0, -1)}`;
        const xml = `${decl ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ''}${c}<${p}${root} ${ns}="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">${entries.map((e) => e.xml).join('')}${w}</${p}${root}>${w}`;
        return { kind, xml, urls: entries.map((e) => e.url) };
      }),
  ),
);

/** The `<loc>` texts of the entries, as saxes reads the document (trimmed). */
function saxesLocs(xml: string): string[] {
  const parser = new SaxesParser();
  const stack: string[] = [];
  const locs: string[] = [];
  let value: string | undefined;
  const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
  parser.on('opentag', (t) => {
    stack.push(local(t.name));
    if (stack.length === 3 && stack[2] === 'loc') value = '';
  });
  parser.on('text', (t) => {
    if (value !== undefined) value += t;
  });
  parser.on('cdata', (t) => {
    if (value !== undefined) value += t;
  });
  parser.on('closetag', () => {
    if (stack.length === 3 && value !== undefined) {
      locs.push(value.trim());
      value = undefined;
    }
    stack.pop();
  });
  parser.on('error', (e) => {
    throw e;
  });
  parser.write(xml).close();
  return locs;
}

describe('sitemap parser: properties', () => {
  test('never throws anything but its typed errors on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.boolean(), (s, cut) => {
        parseOrTypedError(Buffer.from(s, 'utf8'), cut);
      }),
      { numRuns: RUNS },
    );
  });

  test('never throws anything but its typed errors on any bytes, gzipped or not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), fc.boolean(), (b, gz, cut) => {
        const bytes = gz ? gzipSync(b) : b;
        parseOrTypedError(
          cut && bytes.length > 3 ? bytes.subarray(0, bytes.length - 3) : bytes,
          cut,
        );
      }),
      { numRuns: RUNS },
    );
  });

  test('never throws anything but its typed errors on sitemaps cut or mangled anywhere', () => {
    fc.assert(
      fc.property(sitemap, fc.nat(), fc.nat(), fc.string({ maxLength: 4 }), (s, at, len, junk) => {
        const i = at % (s.xml.length + 1);
        const mangled = s.xml.slice(0, i) + junk + s.xml.slice(i + (len % 8));
        parseOrTypedError(Buffer.from(mangled), false);
        parseOrTypedError(Buffer.from(s.xml.slice(0, i)), true);
      }),
      { numRuns: RUNS },
    );
  });

  test('a generated sitemap gives exactly the URLs written, as saxes reads them', () => {
    fc.assert(
      fc.property(sitemap, fc.boolean(), (s, gz) => {
        assert.deepEqual(saxesLocs(s.xml), s.urls, 'the generator writes what it means');
        const body = Buffer.from(s.xml, 'utf8');
        const out = parseSitemap(gz ? gzipSync(body) : body, { url: URL_ });
        assert.equal(out.kind, s.kind === 'url' ? 'urlset' : 'index');
        const got = s.kind === 'url' ? out.urls.map((u) => u.loc) : out.sitemaps.map((x) => x.loc);
        assert.deepEqual(got, s.urls, s.xml);
        assert.equal(out.skipped, 0);
      }),
      { numRuns: RUNS },
    );
  });
});
