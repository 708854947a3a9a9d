// Converts public URL test suites into the data files of test/conformance/url/:
//
//   node scripts/url-cases.mjs wpt <urltestdata.json> <wpt commit>
//     web-platform-tests url/resources/urltestdata.json (BSD-3-Clause) → wpt-cases.json:
//     the cases about http(s) URLs (see inScope below), unchanged.
//
//   node scripts/url-cases.mjs normalizers <cc-dir> <cc commit> <TestBasicURLNormalizer.java> <nutch commit>
//     crawler-commons (Apache-2.0): <cc-dir> holds BasicURLNormalizerTest.java,
//     weirdToNormalizedUrls.csv and invalidUrls.csv; Apache Nutch (Apache-2.0):
//     the test of its urlnormalizer-basic plugin → normalizer-cases.json.
//
// Every (input, expected) pair is kept; a pair made under a non-default
// configuration of the normaliser carries that configuration in `options`, so the
// test can tell it apart. Anything the readers do not understand stops them with
// an error naming the line, so a changed test file is noticed, not misread.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'test/conformance/url');

// ---- WPT ---------------------------------------------------------------------

/** What the URL parser does to the input before anything else. */
const stripped = (s) => s.replace(/^[\0- ]+|[\0- ]+$/g, '').replace(/[\t\n\r]/g, '');

/** An http(s) base (relative references resolved against it) or an absolute http(s) input. */
const inScope = (c) => /^https?:/i.test(c.base ?? '') || /^https?:/i.test(stripped(c.input));

function wpt(file, commit) {
  const all = JSON.parse(readFileSync(file, 'utf8')).filter((c) => typeof c === 'object');
  const cases = all.filter(inScope).map((c) => {
    const out = { input: c.input, base: c.base ?? null };
    if (c.failure === true) out.failure = true;
    else for (const k of ['href', 'protocol', 'host', 'pathname', 'search']) out[k] = c[k];
    return out;
  });
  const data = {
    source: {
      repository: 'https://github.com/web-platform-tests/wpt',
      path: 'url/resources/urltestdata.json',
      commit,
      license: 'BSD-3-Clause',
    },
    selection:
      'cases with an http: or https: base, or whose input (trimmed of C0 controls and spaces, tabs and newlines removed) starts with http: or https:',
    total: all.length,
    cases,
  };
  writeFileSync(join(OUT_DIR, 'wpt-cases.json'), JSON.stringify(data, null, 1) + '\n');
  console.log(`wpt: ${cases.length} of ${all.length} cases in scope`);
}

// ---- JUnit CSV (crawler-commons) ---------------------------------------------

/**
 * JUnit 5's CSV reading as @CsvFileSource/@CsvSource use it by default: `,`
 * delimiter, `"` quotes (`""` inside), lines starting with `#` are comments,
 * unquoted values trimmed, an empty unquoted value is null.
 */
function csvRecord(line, where) {
  const values = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    let v;
    if (line[i] === '"') {
      v = '';
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`${where}: unterminated quote`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            v += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += line[i++];
      }
      while (line[i] === ' ' || line[i] === '\t') i++;
    } else {
      const end = line.indexOf(',', i);
      const raw = end < 0 ? line.slice(i) : line.slice(i, end);
      i = end < 0 ? line.length : end;
      const t = raw.replace(/^[ \t]+|[ \t]+$/g, '');
      v = t === '' ? null : t;
    }
    values.push(v);
    if (i >= line.length) return values;
    if (line[i] !== ',') throw new Error(`${where}: unexpected ${JSON.stringify(line[i])}`);
    i++;
  }
}

function csvFile(text, name) {
  const out = [];
  text.split('\n').forEach((l, n) => {
    const line = l.replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    out.push({ line: n + 1, values: csvRecord(line, `${name}:${n + 1}`) });
  });
  return out;
}

// ---- Java source ---------------------------------------------------------------

/** Java string literal body → string (\uXXXX, \", \\, \n, \t). */
function javaString(body, where) {
  return body.replace(/\\(u+[0-9A-Fa-f]{4}|.)/g, (_, e) => {
    if (e[0] === 'u') return String.fromCharCode(Number.parseInt(e.slice(-4), 16));
    const simple = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\' }[e];
    if (simple === undefined) throw new Error(`${where}: unknown escape \\${e}`);
    return simple;
  });
}

const JAVA_TOKEN =
  /(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)|"((?:[^"\\\n]|\\.)*)"|([A-Za-z_][\w.]*)|(\S)/y;

function javaTokens(src, name) {
  const toks = [];
  let line = 1;
  JAVA_TOKEN.lastIndex = 0;
  while (JAVA_TOKEN.lastIndex < src.length) {
    const m = JAVA_TOKEN.exec(src);
    if (m === null) throw new Error(`${name}:${line}: cannot read`);
    if (m[2] !== undefined) toks.push({ t: 'str', v: javaString(m[2], `${name}:${line}`), line });
    else if (m[3] !== undefined) toks.push({ t: 'id', v: m[3], line });
    else if (m[4] !== undefined) toks.push({ t: 'p', v: m[4], line });
    for (const ch of m[0]) if (ch === '\n') line++;
  }
  return toks;
}

/** The annotation text (`@CsvSource({ ... })`) and method name of each parameterised test. */
function csvSources(toks) {
  const out = [];
  for (let i = 0; i < toks.length; i++) {
    if (!(toks[i].v === 'CsvSource' && toks[i - 1]?.v === '@')) continue;
    const records = [];
    let j = i + 1;
    for (; toks[j].v !== ')'; j++) if (toks[j].t === 'str') records.push(toks[j]);
    while (!(toks[j].v === 'void' && toks[j + 1].t === 'id')) j++;
    out.push({ method: toks[j + 1].v, records });
  }
  return out;
}

function crawlerCommons(dir, commit) {
  const file = 'BasicURLNormalizerTest.java';
  const toks = javaTokens(readFileSync(join(dir, file), 'utf8'), file);
  const cases = [];
  const add = (id, input, expected, extra = {}) =>
    cases.push({ suite: 'crawler-commons', id, input, expected, ...extra });
  for (const { line, values } of csvFile(
    readFileSync(join(dir, 'weirdToNormalizedUrls.csv'), 'utf8'),
    'weirdToNormalizedUrls.csv',
  )) {
    if (values.length !== 2) throw new Error(`weirdToNormalizedUrls.csv:${line}: two values`);
    add(`weirdToNormalizedUrls.csv:${line}`, values[0], values[1]);
  }
  for (const { line, values } of csvFile(
    readFileSync(join(dir, 'invalidUrls.csv'), 'utf8'),
    'invalidUrls.csv',
  )) {
    add(`invalidUrls.csv:${line}`, values[0], null);
  }
  for (const { method, records } of csvSources(toks)) {
    for (const r of records) {
      const values = csvRecord(r.v, `${file}:${r.line}`);
      const id = `${file}:${r.line}`;
      if (method === 'testInvalidIPv6Host') add(id, values[0], null);
      else if (method === 'testQueryParameters' || method === 'testIPv6Host')
        add(id, values[0], values[1] ?? values[0]);
      else throw new Error(`${id}: unknown @CsvSource method ${method}`);
    }
  }
  // Plain @Test methods: normalizeTest("in", "out") under the builder options of the method.
  let options = {};
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.v === 'queryParamsToRemove') {
      const names = [];
      for (let j = i + 1; toks[j].v !== ')' || toks[j + 1].v !== ')'; j++)
        if (toks[j].t === 'str') names.push(toks[j].v);
      options = { queryParamsToRemove: names };
    } else if (t.v === 'BasicURLNormalizer.IdnNormalization.UNICODE') options = { idn: 'unicode' };
    else if (t.v === 'BasicURLNormalizer.IdnNormalization.NONE') options = { idn: 'none' };
    else if (t.v === 'new' && toks[i + 1].v === 'BasicURLNormalizer') options = {};
    else if (t.v === 'normalizeTest' && toks[i + 1].v === '(' && toks[i + 2].t === 'str') {
      if (toks[i + 3].v !== ',' || toks[i + 4].t !== 'str')
        throw new Error(`${file}:${t.line}: normalizeTest with unexpected arguments`);
      const extra = Object.keys(options).length > 0 ? { options } : {};
      add(`${file}:${t.line}`, toks[i + 2].v, toks[i + 4].v, extra);
    }
  }
  return { cases, source: source('crawler-commons/crawler-commons', commit) };
}

function nutch(file, commit) {
  const name = 'TestBasicURLNormalizer.java';
  const toks = javaTokens(readFileSync(file, 'utf8'), name);
  const cases = [];
  // `this.normalizer` has the default configuration; `norm` the configuration
  // set on `conf` before its last `norm.setConf(conf)`.
  let conf = {};
  let normConf = {};
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const args = () => {
      const out = [];
      for (let j = i + 2; toks[j].v !== ')'; j++) if (toks[j].v !== ',') out.push(toks[j]);
      return out;
    };
    // The private helpers at the end call normalizeTest with variables: stop there.
    if (t.v === 'private' && toks[i + 1].v === 'void') break;
    if (t.v === 'conf' && toks[i + 1].v === '=' && toks[i + 2].v === 'NutchConfiguration.create')
      conf = {};
    else if (t.v === 'conf.set' || t.v === 'conf.setBoolean') {
      const [k, v] = args();
      conf = { ...conf, [k.v.replace('BasicURLNormalizer.', '')]: v.v };
    } else if (t.v === 'norm.setConf') normConf = conf;
    else if (t.v === 'normalizeTest' || t.v === 'normalizeTestAssertThrowsMalformedURLException') {
      if (toks[i - 1].v === 'void') continue; // the helpers' own declarations
      const a = args();
      const useNorm = a[0].t === 'id' && a[0].v === 'norm';
      const strs = a.filter((x) => x.t === 'str').map((x) => x.v);
      const throws = t.v !== 'normalizeTest';
      if (strs.length !== (throws ? 1 : 2) || a.length !== strs.length + (useNorm ? 1 : 0))
        throw new Error(`${name}:${t.line}: ${t.v} with unexpected arguments`);
      const options = useNorm ? normConf : {};
      cases.push({
        suite: 'nutch',
        id: `${name}:${t.line}`,
        input: strs[0],
        expected: throws ? null : strs[1],
        ...(Object.keys(options).length > 0 ? { options } : {}),
      });
    }
  }
  return { cases, source: source('apache/nutch', commit) };
}

function source(repo, commit) {
  return { repository: `https://github.com/${repo}`, commit, license: 'Apache-2.0' };
}

/** Several records on one line (a @CsvSource) get `#2`, `#3`... after the first. */
function uniqueIds(cases) {
  const seen = new Map();
  for (const c of cases) {
    const n = (seen.get(c.id) ?? 0) + 1;
    seen.set(c.id, n);
    if (n > 1) c.id = `${c.id}#${n}`;
  }
  return cases;
}

function normalizers(ccDir, ccCommit, nutchFile, nutchCommit) {
  const cc = crawlerCommons(ccDir, ccCommit);
  const nu = nutch(nutchFile, nutchCommit);
  const data = {
    sources: {
      'crawler-commons': {
        ...cc.source,
        paths: [
          'src/test/java/crawlercommons/filters/basic/BasicURLNormalizerTest.java',
          'src/test/resources/normalizer/weirdToNormalizedUrls.csv',
          'src/test/resources/normalizer/invalidUrls.csv',
        ],
      },
      nutch: {
        ...nu.source,
        paths: [
          'src/plugin/urlnormalizer-basic/src/test/org/apache/nutch/net/urlnormalizer/basic/TestBasicURLNormalizer.java',
        ],
      },
    },
    cases: uniqueIds([...cc.cases, ...nu.cases]),
  };
  writeFileSync(join(OUT_DIR, 'normalizer-cases.json'), JSON.stringify(data, null, 1) + '\n');
  console.log(`crawler-commons: ${cc.cases.length} cases, nutch: ${nu.cases.length} cases`);
}

const [what, ...args] = process.argv.slice(2);
if (what === 'wpt' && args.length === 2) wpt(args[0], args[1]);
else if (what === 'normalizers' && args.length === 4) normalizers(...args);
else {
  console.error(
    'usage: node scripts/url-cases.mjs wpt <urltestdata.json> <commit>\n' +
      '       node scripts/url-cases.mjs normalizers <cc-dir> <cc commit> <TestBasicURLNormalizer.java> <nutch commit>',
  );
  process.exit(2);
}
