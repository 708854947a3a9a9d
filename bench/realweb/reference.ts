// The two reference crawlers: one request at a time to the local server (undici, Host
// header), links read with htmlparser2 (html.ts), canonical URLs (resolved, no #fragment),
// links to hosts the server does not serve dropped unfetched, redirects followed at once.
//   bfs:     first in, first out.
//   keyword: best-first; a link's priority is 0.5·(share of the topic's keywords in its
//            anchor text and URL words) + 0.5·(share of the keywords in the text of the
//            page it was found on); a URL found again keeps its best priority; ties in
//            discovery order.
import { Client } from 'undici';
import { baseOf, parseHtml, resolveLink } from './html.js';

/** Keyword matching: lower case; Latin keywords as whole words (phrases across any non-letters), CJK ones as substrings. */
export function keywordShare(keywords: readonly string[]): (text: string) => number {
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  const tests = keywords.map((k) => {
    const kw = k.toLowerCase().trim();
    if (cjk.test(kw)) return (t: string) => t.includes(kw);
    const words = kw.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const esc = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const re = new RegExp(
      `(?<![\\p{L}\\p{N}])${esc.join('[^\\p{L}\\p{N}]+')}(?![\\p{L}\\p{N}])`,
      'u',
    );
    return (t: string) => re.test(t);
  });
  return (text) => {
    if (tests.length === 0) return 0;
    const t = text.toLowerCase();
    let n = 0;
    for (const test of tests) if (test(t)) n++;
    return n / tests.length;
  };
}

/** The words of a URL: host, path and query, percent-decoded, split on everything but letters and digits. */
export function urlWords(url: string): string {
  const u = new URL(url);
  let s = `${u.hostname} ${u.pathname} ${u.search}`;
  try {
    s = decodeURIComponent(s);
  } catch {
    // keep it encoded
  }
  return s.replace(/[^\p{L}\p{N}]+/gu, ' ');
}

export interface ReferenceOptions {
  kind: 'bfs' | 'keyword';
  seed: string;
  port: number;
  /** Hosts the server serves; links elsewhere are dropped. */
  hosts: ReadonlySet<string>;
  keywords: readonly string[];
  /** Fetches (every request made: robots.txt is never asked for). */
  budget: number;
}

/** A max-heap on priority, first discovered first on ties. */
class Frontier {
  #heap: Array<{ p: number; seq: number; url: string }> = [];
  push(p: number, seq: number, url: string) {
    const h = this.#heap;
    h.push({ p, seq, url });
    let i = h.length - 1;
    while (i > 0) {
      const j = (i - 1) >> 1;
      if (!this.#before(h[i]!, h[j]!)) break;
      [h[i], h[j]] = [h[j]!, h[i]!];
      i = j;
    }
  }
  pop(): { p: number; seq: number; url: string } | undefined {
    const h = this.#heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.#before(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.#before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
  #before(a: { p: number; seq: number }, b: { p: number; seq: number }) {
    return a.p > b.p || (a.p === b.p && a.seq < b.seq);
  }
}

/** Runs one reference crawl; returns the number of fetches made. */
export async function referenceCrawl(o: ReferenceOptions): Promise<number> {
  const client = new Client(`http://127.0.0.1:${o.port}`, { pipelining: 0 });
  const share = keywordShare(o.keywords);
  const best = new Map<string, { p: number; seq: number }>();
  const fetched = new Set<string>();
  const fifo: string[] = [];
  let head = 0;
  const frontier = new Frontier();
  let seq = 0;
  const discover = (url: string, p: number) => {
    const known = best.get(url);
    if (!known) {
      best.set(url, { p, seq });
      if (o.kind === 'bfs') fifo.push(url);
      else frontier.push(p, seq, url);
      seq++;
    } else if (o.kind === 'keyword' && p > known.p && !fetched.has(url)) {
      known.p = p;
      frontier.push(p, known.seq, url);
    }
  };
  const next = (): string | undefined => {
    while (o.kind === 'bfs') {
      const url = fifo[head++];
      if (url === undefined || !fetched.has(url)) return url;
    }
    for (;;) {
      const e = frontier.pop();
      if (!e) return undefined;
      if (!fetched.has(e.url) && best.get(e.url)?.p === e.p) return e.url;
    }
  };
  const served = (url: string) => {
    const u = new URL(url);
    return u.protocol === 'http:' && o.hosts.has(u.hostname) && (u.port === '' || u.port === '80');
  };

  discover(o.seed, 1);
  let fetches = 0;
  try {
    for (let url = next(); url !== undefined && fetches < o.budget; url = next()) {
      let target = url;
      for (let hop = 0; hop <= 5 && fetches < o.budget; hop++) {
        fetched.add(target);
        const u = new URL(target);
        const res = await client.request({
          method: 'GET',
          path: u.pathname + u.search,
          headers: { host: u.host, 'user-agent': `realweb-reference-${o.kind}` },
        });
        fetches++;
        const body = await res.body.text();
        const location = res.headers['location'];
        if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
          const to = resolveLink(location, target);
          if (!to || !served(to) || fetched.has(to)) break;
          best.set(to, best.get(target) ?? { p: 0, seq: seq++ });
          target = to;
          continue;
        }
        const type = String(res.headers['content-type'] ?? '');
        if (res.statusCode !== 200 || !/html/i.test(type)) break;
        const page = parseHtml(body);
        const base = baseOf(page, target);
        const pageScore = o.kind === 'keyword' ? share(`${page.title} ${page.text}`) : 0;
        for (const a of page.anchors) {
          const link = resolveLink(a.href, base);
          if (!link || !served(link)) continue;
          const p =
            o.kind === 'keyword' ? 0.5 * share(`${a.text} ${urlWords(link)}`) + 0.5 * pageScore : 0;
          discover(link, p);
        }
        break;
      }
    }
  } finally {
    await client.close();
  }
  return fetches;
}
