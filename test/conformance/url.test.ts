// Public URL test suites run through focuscrawl's canonicaliser (src/url/canonicalize.ts):
// the WHATWG URL tests of web-platform-tests (BSD-3-Clause) and the URL-normaliser
// cases of crawler-commons and Apache Nutch (Apache-2.0). Sources, commits and the
// conversion: test/conformance/url/README.md. Figures and differences: docs/url.md.
//
// Every case either agrees or is listed in url/known-differences.json with its
// category; the number of agreeing cases is asserted exactly, so a regression (or a
// listed difference that went away) fails.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { canonicalizeUrl, sortQuery } from '../../src/url/index.js';

interface WptCase {
  input: string;
  base: string | null;
  failure?: true;
  href?: string;
  protocol?: string;
  host?: string;
  pathname?: string;
  search?: string;
}
interface NormalizerCase {
  suite: 'crawler-commons' | 'nutch';
  id: string;
  input: string;
  expected: string | null;
  options?: Record<string, unknown>;
}
interface Known {
  categories: Record<string, { kind: 'deliberate' | 'platform'; reason: string }>;
  cases: Array<{ suite: string; id: string; input: string; category: string }>;
}

const read = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./url/${name}`, import.meta.url), 'utf8')) as T;

const wpt = read<{ source: { commit: string; license: string }; total: number; cases: WptCase[] }>(
  'wpt-cases.json',
);
const normalizers = read<{
  sources: Record<string, { commit: string; license: string }>;
  cases: NormalizerCase[];
}>('normalizer-cases.json');
const known = read<Known>('known-differences.json');
const knownByKey = new Map(known.cases.map((k) => [`${k.suite}|${k.id}`, k]));

/*
 * What the canonicaliser is expected to give for a WPT case, from the suite's own
 * fields, with the canonicaliser's deliberate normalisations written out here
 * independently of its code: user name, password and fragment dropped (the suite's
 * `host` has no credentials and lower-case, IDNA, default-port-free already);
 * escapes of unreserved characters decoded and the other escapes in upper-case hex;
 * a last segment `index.html`/`index.htm` dropped; a failure or a scheme other than
 * http(s) rejected (null).
 */
function percentNormalised(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(Number.parseInt(hex, 16));
    return /^[A-Za-z0-9\-._~]$/.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

function expectedOfWpt(c: WptCase): string | null {
  if (c.failure === true) return null;
  if (c.protocol !== 'http:' && c.protocol !== 'https:') return null;
  const path = percentNormalised(c.pathname ?? '').replace(/\/index\.html?$/, '/');
  return `${c.protocol}//${c.host}${path}${percentNormalised(c.search ?? '')}`;
}

interface Outcome {
  agree: number;
  deliberate: Map<string, string[]>;
  platform: string[];
  platformAgreeing: number;
  unexpected: string[];
  staleKnown: string[];
}

function run(
  suite: string,
  cases: Array<{ id: string; input: string; expected: string | null; got: string | null }>,
): Outcome {
  const out: Outcome = {
    agree: 0,
    deliberate: new Map(),
    platform: [],
    platformAgreeing: 0,
    unexpected: [],
    staleKnown: [],
  };
  for (const c of cases) {
    const k = knownByKey.get(`${suite}|${c.id}`);
    const kind = k === undefined ? undefined : known.categories[k.category]?.kind;
    const what = `${suite} ${c.id} ${JSON.stringify(c.input)}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(c.got)}`;
    if (k !== undefined) assert.equal(k.input, c.input, `known difference ${k.id} names its input`);
    if (c.got === c.expected) {
      if (kind === 'platform') out.platformAgreeing++;
      else if (kind !== undefined) out.staleKnown.push(what);
      else out.agree++;
      continue;
    }
    if (k === undefined || kind === undefined) out.unexpected.push(what);
    else if (kind === 'platform') out.platform.push(what);
    else {
      const list = out.deliberate.get(k.category) ?? [];
      list.push(what);
      out.deliberate.set(k.category, list);
    }
  }
  return out;
}

function report(name: string, n: number, o: Outcome): void {
  const deliberate = [...o.deliberate.values()].reduce((s, l) => s + l.length, 0);
  const passing = o.agree + o.platformAgreeing;
  const byCategory = [...o.deliberate].map(([k, l]) => `${k} ${l.length}`).join(', ');
  console.log(
    `${name}: ${passing}/${n} cases agree (${((100 * passing) / n).toFixed(1)}%), ${deliberate} deliberate differences (${byCategory || 'none'}), ${o.platform.length} differences of the platform's URL parser, ${o.unexpected.length} unexpected`,
  );
}

function assertOutcome(o: Outcome, expectedAgree: number): void {
  assert.deepEqual(o.unexpected, [], 'cases that disagree and are not known differences');
  assert.deepEqual(o.staleKnown, [], 'known differences that now agree: update the list');
  assert.equal(o.agree, expectedAgree, 'number of agreeing cases (outside platform differences)');
}

describe('URL conformance: WHATWG URL tests (web-platform-tests urltestdata.json)', () => {
  test('the data file holds the http(s) cases of urltestdata.json', () => {
    assert.equal(wpt.source.license, 'BSD-3-Clause');
    assert.match(wpt.source.commit, /^[0-9a-f]{40}$/);
    assert.equal(wpt.cases.length, 479);
    assert.ok(wpt.total > wpt.cases.length);
  });

  test('what the canonicaliser accepts and rejects, and the URL it gives, agree with the suite', () => {
    const o = run(
      'wpt',
      wpt.cases.map((c, i) => ({
        id: String(i),
        input: c.input,
        expected: expectedOfWpt(c),
        got: canonicalizeUrl(c.input, c.base ?? undefined),
      })),
    );
    report(`urltestdata.json @ ${wpt.source.commit.slice(0, 12)}`, wpt.cases.length, o);
    assertOutcome(o, 472);
    // The platform differences are all failures of Node's parser on hosts the
    // current standard accepts; a newer Node may agree with some of them.
    assert.equal(o.platform.length + o.platformAgreeing, 7);
  });

  test('the selection covers relative references and failures', () => {
    // Guards the selection against silently shrinking to absolute URLs that parse.
    const relative = wpt.cases.filter((c) => c.base !== null && !/^\s*https?:/i.test(c.input));
    assert.ok(relative.length > 50, String(relative.length));
    assert.ok(wpt.cases.filter((c) => c.failure === true).length > 50);
  });
});

describe('URL conformance: crawler-commons and Nutch BasicURLNormalizer cases', () => {
  for (const [suite, n, agree] of [
    ['crawler-commons', 142, 93],
    ['nutch', 116, 70],
  ] as const) {
    test(`${suite}: every case agrees or is a listed difference (${agree}/${n} agree)`, () => {
      assert.equal(normalizers.sources[suite]?.license, 'Apache-2.0');
      const cases = normalizers.cases.filter((c) => c.suite === suite);
      assert.equal(cases.length, n);
      const o = run(
        suite,
        cases.map((c) => ({ ...c, got: canonicalizeUrl(c.input) })),
      );
      report(`${suite} BasicURLNormalizer`, n, o);
      assertOutcome(o, agree);
      assert.equal(o.platform.length, 0);
    });
  }

  test('the query-order differences are exactly the cases sortQuery() settles', () => {
    for (const k of known.cases.filter((x) => x.category === 'query-order')) {
      const c = normalizers.cases.find((x) => x.suite === k.suite && x.id === k.id);
      assert.ok(c !== undefined && c.expected !== null, k.id);
      const got = canonicalizeUrl(c.input);
      assert.ok(got !== null, k.id);
      assert.equal(sortQuery(got), c.expected, k.id);
    }
  });

  test('every known difference names a case and a category with a reason', () => {
    const ids = new Set([
      ...wpt.cases.map((_, i) => `wpt|${i}`),
      ...normalizers.cases.map((c) => `${c.suite}|${c.id}`),
    ]);
    for (const k of known.cases) {
      assert.ok(ids.has(`${k.suite}|${k.id}`), `${k.suite} ${k.id} is a case`);
      assert.ok((known.categories[k.category]?.reason.length ?? 0) > 20, k.category);
    }
    assert.equal(knownByKey.size, known.cases.length, 'known differences are unique');
  });
});
