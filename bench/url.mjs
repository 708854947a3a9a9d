// Micro-benchmark: URL canonicalisation and scope filtering, in URLs per second.
// Build first, then run:   npx tsc -p tsconfig.build.json && node bench/url.mjs
import { canonicalizeUrl, createScopeFilter, hostOf } from '../dist/url/index.js';

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

function bench(name, fn, rounds) {
  for (let i = 0; i < 2000; i++) fn(); // warm-up
  const t0 = process.hrtime.bigint();
  let n = 0;
  for (let r = 0; r < rounds; r++) n += fn();
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(
    `${name.padEnd(44)} ${Math.round(n / s)
      .toLocaleString('en-US')
      .padStart(12)} URLs/s`,
  );
}

let sink = 0;
bench(
  'new URL(x, base).href (baseline)',
  () => {
    for (const x of links) {
      try {
        sink += new URL(x, base).href.length;
      } catch {}
    }
    return links.length;
  },
  20000,
);

bench(
  'canonicalizeUrl(x, base)',
  () => {
    for (const x of links) sink += canonicalizeUrl(x, base)?.length ?? 0;
    return links.length;
  },
  20000,
);

const canon = links.map((x) => canonicalizeUrl(x, base)).filter((x) => x !== null);
bench(
  'canonicalizeUrl(canonical) (re-check)',
  () => {
    for (const x of canon) sink += canonicalizeUrl(x)?.length ?? 0;
    return canon.length;
  },
  20000,
);

bench(
  'hostOf(canonical)',
  () => {
    for (const x of canon) sink += hostOf(x)?.length ?? 0;
    return canon.length;
  },
  50000,
);

const inScope = createScopeFilter({
  mode: 'same-domain',
  seeds: ['http://www.scu.edu.cn/'],
  denyHosts: ['*.ads.example'],
  exclude: ['\\.(?:pdf|png|jpg)$', '[?&]sid='],
});
bench(
  'scope filter (same-domain, 2 excludes)',
  () => {
    for (const x of canon) sink += inScope(x) ? 1 : 0;
    return canon.length;
  },
  50000,
);

if (sink === 0) console.log('');
console.log(`node ${process.version}, ${links.length} links per page`);
