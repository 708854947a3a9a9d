// Micro-benchmark: URL canonicalisation and scope filtering, in URLs per second.
// Build first, then run:   npx tsc -p tsconfig.build.json && node bench/url.mjs
// Options: --passes P (passes over the link list per timed round, default 4000),
//          --rounds R (timed rounds per row, default 5; figures are medians)
//
// Peer: normalize-url 8 (bench/node_modules; `cd bench && npm install`), the package most
// Node users pick to normalise URLs. It takes absolute URLs only, so its timed loop first
// resolves each link with `new URL(link, base)` and skips the non-http(s) schemes, as
// canonicalizeUrl(link, base) does; both count every link of the list. Its options are
// the ones closest to canonicalizeUrl: stripHash, stripWWW: false, removeQueryParameters:
// false (keeps utm_*), removeTrailingSlash: false, removeSingleSlash: false,
// sortQueryParameters: false, removeDirectoryIndex: ['index.html', 'index.htm'].
// With these, normalize-url does more: it collapses repeated slashes in the path, drops a
// trailing dot of the host, and decodes every escape decodeURI decodes (`%2541` becomes
// `%41`, another URL); it does less: escapes in the query keep their case and are not
// decoded (`?q=%7e`), `%2f` keeps its lower-case hex, an empty query (`?`) stays,
// `.`/`..` segments that Node 20's parser leaves (`/a/.x/./`) stay, and `/index.html` at
// the root loses its slash (`http://host`). The agreement on this bench's links is
// printed with the timings, with every link on which the two differ.
// Canonicalisation rows run in alternation within each round (baseline, focuscrawl,
// peer, baseline, …), so that drift of the machine hits all three alike.
import { canonicalizeUrl, createScopeFilter, hostOf } from '../dist/url/index.js';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const passes = opt('passes', 4000);
const rounds = opt('rounds', 5);

// A page's worth of links, as a parser sees them: relative and absolute, with
// fragments, queries, escapes, default pages and a few non-http schemes.
const base = 'http://www.scu.edu.cn/news/2024/list.html?page=3';
const links = [
  '/',
  '/index.html',
  'detail/1234.html',
  '../2023/detail/99.html#comments',
  './a/b/../c.html',
  '?page=4',
  '#top',
  'http://www.scu.edu.cn/about/',
  'https://news.scu.edu.cn/a/b/c?x=1&y=2',
  'http://WWW.Example.COM:80/~user/index.htm',
  'http://example.com/%7euser/%2fpath?q=%e4%b8%ad',
  'javascript:void(0)',
  'mailto:office@scu.edu.cn',
  '/search?q=power+grid&lang=en',
  'http://bücher.example/katalog/',
  '//cdn.example.net/lib/app.js',
  'detail/1235.html',
  'detail/1236.html',
  'detail/1237.html',
  '/column/teaching/',
  '/column/research/',
  'https://www.gov.cn/zhengce/content/2024-01/05/content_123456.htm',
  'http://a.b.test:8080/p/1',
  '/static/doc%20file.pdf',
  '../../images/logo.png',
  'tel:+86-28-85404001',
  'http://www.scu.edu.cn/news/2024/list.html?page=5',
  '/en/',
  '/en/index.html#main',
  'https://weibo.com/scu?refer=home',
  'detail/1238.html',
  'detail/1239.html',
  'http://www.scu.edu.cn/./x/../y/',
  '/a%7Eb/c',
  'http://user:pw@host.example/x',
  '/news/2024/detail/1240.html',
  '/news/2024/detail/1241.html',
  'https://example.org/',
  'http://[::1]:8080/x',
  '  /trimmed  ',
];

let normalizeUrl = null;
try {
  ({ default: normalizeUrl } = await import('normalize-url'));
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
  console.log('peer normalize-url not installed: (cd bench && npm install)');
}

const peerOptions = {
  stripHash: true,
  stripWWW: false,
  removeQueryParameters: false,
  removeTrailingSlash: false,
  removeSingleSlash: false,
  removeDirectoryIndex: ['index.html', 'index.htm'],
  sortQueryParameters: false,
};

/** normalize-url's form of `x` resolved against `base`, or null for a non-http(s) link. */
function peerCanonicalize(x) {
  let u;
  try {
    u = new URL(x, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  try {
    return normalizeUrl(u.href, peerOptions);
  } catch {
    return null;
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const perSecond = (x) => Math.round(x).toLocaleString('en-US');
const printRow = (name, urlsPerSecond) =>
  console.log(`${name.padEnd(44)} ${perSecond(urlsPerSecond).padStart(12)} URLs/s`);

/**
 * Median URLs/s of each row over `rounds` timed rounds of `n` passes each (`fn` does one
 * pass and returns the URLs it handled). The rows take turns within a round.
 */
function measure(rows, n) {
  for (const row of rows) for (let i = 0; i < 2000; i++) row.fn(); // warm-up
  const rates = rows.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (const [k, row] of rows.entries()) {
      const t0 = process.hrtime.bigint();
      let urls = 0;
      for (let i = 0; i < n; i++) urls += row.fn();
      rates[k].push(urls / (Number(process.hrtime.bigint() - t0) / 1e9));
    }
  }
  return rates.map(median);
}

let sink = 0;
console.log(`median of ${rounds} rounds × ${passes.toLocaleString('en-US')} passes`);

const canonRows = [
  {
    name: 'new URL(x, base).href (baseline)',
    fn: () => {
      for (const x of links) {
        try {
          sink += new URL(x, base).href.length;
        } catch {}
      }
      return links.length;
    },
  },
  {
    name: 'canonicalizeUrl(x, base)',
    fn: () => {
      for (const x of links) sink += canonicalizeUrl(x, base)?.length ?? 0;
      return links.length;
    },
  },
];
if (normalizeUrl !== null) {
  canonRows.push({
    name: 'normalize-url(new URL(x, base).href) (peer)',
    fn: () => {
      for (const x of links) sink += peerCanonicalize(x)?.length ?? 0;
      return links.length;
    },
  });
}
const canonRates = measure(canonRows, passes);
for (const [k, row] of canonRows.entries()) printRow(row.name, canonRates[k]);

if (normalizeUrl !== null) {
  const ratio = canonRates[1] / canonRates[2];
  console.log(`${'  focuscrawl ÷ normalize-url'.padEnd(44)} ${ratio.toFixed(2).padStart(12)}×`);
  let http = 0;
  let same = 0;
  const differ = [];
  for (const x of links) {
    const ours = canonicalizeUrl(x, base);
    const theirs = peerCanonicalize(x);
    if (ours === null && theirs === null) continue;
    http++;
    if (ours === theirs) same++;
    else differ.push(`    ${JSON.stringify(x)} → ${ours} | ${theirs}`);
  }
  const skipped = links.length - http;
  console.log(
    `  agree on ${same} of ${http} http(s) links (${Math.round((100 * same) / http)}%); ` +
      `${skipped} non-http skipped by both`,
  );
  if (differ.length > 0) console.log('  differ (input → focuscrawl | normalize-url):');
  for (const line of differ) console.log(line);
}

const canon = links.map((x) => canonicalizeUrl(x, base)).filter((x) => x !== null);
const inScope = createScopeFilter({
  mode: 'same-domain',
  seeds: ['http://www.scu.edu.cn/'],
  denyHosts: ['*.ads.example'],
  exclude: ['\\.(?:pdf|png|jpg)$', '[?&]sid='],
});
const checkRows = [
  {
    name: 'canonicalizeUrl(canonical) (re-check)',
    fn: () => {
      for (const x of canon) sink += canonicalizeUrl(x)?.length ?? 0;
      return canon.length;
    },
    n: passes,
  },
  {
    name: 'hostOf(canonical)',
    fn: () => {
      for (const x of canon) sink += hostOf(x)?.length ?? 0;
      return canon.length;
    },
    n: Math.round(passes * 2.5),
  },
  {
    name: 'scope filter (same-domain, 2 excludes)',
    fn: () => {
      for (const x of canon) sink += inScope(x) ? 1 : 0;
      return canon.length;
    },
    n: Math.round(passes * 2.5),
  },
];
for (const row of checkRows) printRow(row.name, measure([row], row.n)[0]);

if (sink === 0) console.log('');
console.log(
  `node ${process.version}, ${links.length} links per page` +
    (normalizeUrl === null ? '' : ', normalize-url 8'),
);
