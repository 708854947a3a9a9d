// Parser and charset micro-benchmarks (single process, no network for the speed parts):
//  1. parseHtml pages/s, ms/page and MB/s on ~10 KB test-web pages, with the fast
//     engine (default) and the htmlparser2 engine, beside a bare htmlparser2 loop that
//     only collects <a href> values (the ceiling), and the streaming form;
//  2. decodeBody MB/s per charset (declared in the header, and undeclared = detected),
//     beside TextDecoder and iconv-lite on the same bytes;
//  3. detection accuracy on the test web's <cs>-none hosts (fetched over 127.0.0.1).
//
//   npm run build && node bench/parse.mjs [--pages 2000] [--seconds 2] [--accuracy-pages 200] [--parser-only]
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { Parser } from 'htmlparser2';
import iconv from 'iconv-lite';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '2' },
    'accuracy-pages': { type: 'string', default: '200' },
    'parser-only': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);

const { parseHtml, createHtmlParser } = await import('../dist/parse/index.js');
const { decodeBody } = await import('../dist/fetch/charset/index.js');
const { listPageUrls, pageHtml, startTestWeb, CHARSETS, charsetSample } = await import(
  '../dist/testweb/index.js'
);

/**
 * Runs fn over the items round-robin for SECONDS of CPU time (after a short warm-up).
 * CPU time rather than wall time, so that other processes on the machine matter less.
 */
function measure(items, fn) {
  const warm = performance.now();
  let i = 0;
  while (performance.now() - warm < 300) fn(items[i++ % items.length]);
  let n = 0;
  const c0 = process.cpuUsage();
  let cpu = 0;
  while (cpu < SECONDS * 1e6) {
    for (let k = 0; k < 20; k++) fn(items[n++ % items.length]);
    const c = process.cpuUsage(c0);
    cpu = c.user + c.system;
  }
  return { n, secs: cpu / 1e6 };
}

// ---------- 1. parser ----------
const web = { seed: 1, size: 'large' };
const urls = listPageUrls(web, Number(values.pages));
const pages = urls.map((u) => ({ url: u, html: pageHtml(web, u) }));
const totalBytes = pages.reduce((s, p) => s + Buffer.byteLength(p.html), 0);
const avgBytes = totalBytes / pages.length;
console.log(
  `parser: ${pages.length} test-web pages, average ${(avgBytes / 1024).toFixed(1)} KiB (UTF-8), best of 3 × ${SECONDS} s CPU per row`,
);

function bare(p) {
  const hrefs = [];
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name === 'a' && attrs.href) hrefs.push(attrs.href);
    },
  });
  parser.end(p.html);
  return hrefs.length;
}
const opts = {};
function full(p) {
  return parseHtml(p.html, p.url, opts).links.length;
}
const h2 = { engine: 'htmlparser2' };
function fullHtmlparser2(p) {
  return parseHtml(p.html, p.url, h2).links.length;
}
const noContext = { contextChars: 0 };
function fullNoContext(p) {
  return parseHtml(p.html, p.url, noContext).links.length;
}
function streaming(p) {
  const s = createHtmlParser(p.url, opts);
  for (let i = 0; i < p.html.length; i += 4096) s.write(p.html.slice(i, i + 4096));
  return s.end().links.length;
}

const rows = [
  ['htmlparser2, hrefs only', bare],
  ['parseHtml (fast engine)', full],
  ['parseHtml engine htmlparser2', fullHtmlparser2],
  ['parseHtml contextChars 0', fullNoContext],
  ['createHtmlParser 4 KiB chunks', streaming],
];
// Rows alternate over ROUNDS rounds; the best rate of each row is reported.
const ROUNDS = 3;
const best = new Map();
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, fn] of rows) {
    const { n, secs } = measure(pages, fn);
    best.set(name, Math.max(best.get(name) ?? 0, n / secs));
  }
}
const baseRate = best.get(rows[0][0]);
for (const [name] of rows) {
  const rate = best.get(name);
  console.log(
    `  ${name.padEnd(30)} ${rate.toFixed(0).padStart(7)} pages/s ${(1000 / rate).toFixed(3).padStart(7)} ms/page ${((rate * avgBytes) / 1048576).toFixed(1).padStart(6)} MB/s ${((rate / baseRate) * 100).toFixed(0).padStart(4)}%`,
  );
}
const sample = parseHtml(pages[0].html, pages[0].url);
console.log(
  `  (page 0: ${sample.links.length} links, ${sample.text.length} text chars; links/page over the set: ${(
    pages.reduce((s, p) => s + parseHtml(p.html, p.url).links.length, 0) / pages.length
  ).toFixed(1)})`,
);

if (values['parser-only']) process.exit(0);

// ---------- 2. decoding ----------
// Test-web pages declare utf-8 in a <meta>; drop it so that undeclared bytes are detected.
const noMeta = (h) => h.replace(/<meta charset="utf-8">\n?/i, '');
const zhHtml = noMeta(pages.find((p) => p.html.includes('lang="zh'))?.html ?? pages[0].html);
const enPage = pages.find((p) => p.html.includes('lang="en'));
const enHtml = enPage === undefined ? undefined : noMeta(enPage.html);
const fr =
  'Le conseil municipal a approuvé mercredi soir le projet de rénovation de la médiathèque, ' +
  'fermée depuis l’été dernier. « C’est un équipement essentiel », a déclaré la maire — ';
const latinHtml = `<html><head><title>Café</title></head><body>${`<p>${fr}</p>\n`.repeat(60)}</body></html>`;
const twHtml = `<html><body>${'<p>這個週末我們到臺北的夜市逛街，吃了滷肉飯和珍珠奶茶。圖書館裡的學生們都很認真。</p>\n'.repeat(120)}</body></html>`;
const jaHtml = `<html><body>${'<p>今日は天気が良かったので、近くの公園までゆっくり散歩に行きました。</p>\n'.repeat(120)}</body></html>`;
const koHtml = `<html><body>${'<p>오늘은 날씨가 좋아서 친구와 함께 한강 공원에 산책을 갔습니다.</p>\n'.repeat(120)}</body></html>`;

const decodeRows = [
  ['utf-8', 'utf-8', zhHtml],
  ['gbk', 'gbk', zhHtml],
  ['gb18030', 'gb18030', zhHtml],
  ['big5', 'big5', twHtml],
  ['shift_jis', 'shift_jis', jaHtml],
  ['euc-kr', 'euc-kr', koHtml],
  ['windows-1252', 'windows-1252', latinHtml],
];
if (enHtml !== undefined) decodeRows.push(['windows-1252 (ASCII page)', 'windows-1252', enHtml]);

console.log(
  '\ndecodeBody MB/s of CPU time (input bytes): declared in the header, undeclared (detected), raw decoders',
);
console.log(
  `  ${'charset'.padEnd(26)} ${'header'.padStart(8)} ${'detected'.padStart(9)} ${'TextDecoder'.padStart(12)} ${'iconv-lite'.padStart(11)}`,
);
for (const [name, cs, html] of decodeRows) {
  const bytes = cs === 'utf-8' ? Buffer.from(html, 'utf8') : iconv.encode(html, cs);
  const items = [bytes];
  const mbps = (fn) => {
    const { n, secs } = measure(items, fn);
    return ((n * bytes.length) / secs / 1048576).toFixed(0);
  };
  const header = `text/html; charset=${cs}`;
  const td = new TextDecoder(cs === 'gbk' ? 'gb18030' : cs);
  const detected = decodeBody(bytes, undefined);
  const expected = iconv.decode(bytes, cs === 'gbk' ? 'gb18030' : cs);
  const check = detected.text === expected ? '' : ` (detected ${detected.charset}: WRONG)`;
  console.log(
    `  ${name.padEnd(26)} ${mbps((b) => decodeBody(b, header)).padStart(8)} ${mbps((b) => decodeBody(b, undefined)).padStart(9)} ${mbps((b) => td.decode(b)).padStart(12)} ${mbps((b) => iconv.decode(b, cs)).padStart(11)}${check}`,
  );
}

// ---------- 3. detection accuracy on <cs>-none hosts ----------
function get(port, host, path) {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host }, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ body: Buffer.concat(chunks), type: res.headers['content-type'] }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
const N = Number(values['accuracy-pages']);
const tw = await startTestWeb({ port: 0, maxLogEntries: 0 });
console.log(
  `\ndetection on <cs>-none.test, pages 0..${N - 1}: right = sample text decoded exactly`,
);
for (const cs of CHARSETS) {
  let right = 0;
  let minConf = 1;
  const seen = new Map();
  for (let n = 0; n < N; n++) {
    const { body, type } = await get(tw.port, `${cs}-none.test`, n === 0 ? '/' : `/page/${n}`);
    const r = decodeBody(body, type);
    if (r.text.includes(charsetSample(cs, n)) && r.source === 'detected') right++;
    seen.set(r.charset, (seen.get(r.charset) ?? 0) + 1);
    minConf = Math.min(minConf, r.confidence ?? 0);
  }
  const as = [...seen].map(([k, v]) => `${k}×${v}`).join(' ');
  console.log(
    `  ${cs.padEnd(13)} ${right}/${N} (${((right / N) * 100).toFixed(1)}%)  detected as ${as}; lowest confidence ${minConf}`,
  );
}
await tw.close();
