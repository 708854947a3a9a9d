// The pages of the store-alone part of bench/scale.ts: URLs spread over many hosts,
// and the outcomes a crawl of a finite web records for claimed URLs.
import { gzipSync } from 'node:zlib';
import type { ClaimedUrl, Outcome } from '../src/store/index.js';

/** About 75 characters; hosts spread over 5,003 names so that the URL index fills out of order. */
export const urlOf = (i: number): string =>
  `http://www.site${(Math.imul(i, 0x9e3779b1) >>> 0) % 5003}.example.com/section/${(i * 7919) % 997}/article-${i}.html`;

/** Ids of the URLs the parent fills the frontier with, and of those the clients find. */
export const FILL_BASE = 20_000_000;
const FOUND_BASE = 100_000_000;

// Bodies of about 10 KB of prose-like HTML (gzip keeps about a third), a few to go round.
const WORDS =
  'grid power market solar wind storage price demand supply energy policy report tariff network capacity plant coal gas nuclear battery transmission utility carbon emission auction forecast'.split(
    ' ',
  );
const BODIES = Array.from({ length: 16 }, (_, b) => {
  let x = b + 1;
  const word = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return WORDS[(x >>> 16) % WORDS.length] as string;
  };
  const paras = Array.from(
    { length: 40 },
    () => `<p>${Array.from({ length: 30 }, word).join(' ')}.</p>`,
  );
  return Buffer.from(
    `<html><head><title>${word()} ${word()}</title></head><body>${paras.join('')}</body></html>`,
  );
});
/** The bodies' size after gzip, for the benchmark's description. */
export const BODY_BYTES = BODIES[0]?.length ?? 0;
export const BODY_GZ_BYTES = gzipSync(BODIES[0] ?? Buffer.alloc(0)).length;

/**
 * Outcomes of claimed URLs as a crawl of a finite web records them: every tenth a
 * network error, a third of the others discarded (no body), the rest kept with their
 * body; each page with 36 links: 10 shared by every page, 23 found earlier, 3 never
 * seen. A crawl sends the store a link's URL only when it has not sent it before or
 * now scores it higher (crawl/seen.ts): the 3 new URLs and `resend` of those found
 * earlier (33: every link, as bench/store.mjs offers them). `next()` numbers the
 * pages across all clients.
 */
export function outcomes(
  claimed: readonly ClaimedUrl[],
  next: () => number,
  resend: number,
): Outcome[] {
  return claimed.map((c, k): Outcome => {
    const fetchedAt = Date.now();
    if (k % 10 === 9)
      return { url: c.url, state: 'error', result: { fetchedAt, error: 'FC_ERR_NETWORK' } };
    const g = next();
    const targets = [
      ...Array.from({ length: 10 }, (_, j) => urlOf(FOUND_BASE + j)),
      ...Array.from({ length: 23 }, (_, j) =>
        urlOf(FOUND_BASE + ((g * 31 + j * 977) % (3 * g + 10))),
      ),
      ...Array.from({ length: 3 }, (_, j) => urlOf(FOUND_BASE + 10 + g * 3 + j)),
    ];
    const kept = k % 3 !== 0;
    const body = BODIES[g % BODIES.length] as Buffer;
    return {
      url: c.url,
      state: kept ? 'complete' : 'discard',
      result: {
        fetchedAt,
        status: 200,
        contentType: 'text/html',
        bytes: body.length,
        title: 'A page title',
        relevance: kept ? 0.4 : 0.05,
        ...(kept ? { body } : { contentHash: 'd41d8cd98f00b204e9800998ecf8427e' }),
        links: targets.map((u, j) => ({ url: u, anchor: j % 2 ? 'link text' : null })),
        newUrls: targets.slice(33 - resend).map((u, j) => ({
          url: u,
          depth: c.depth + 1,
          priority: (j * 13 + g) % 100,
          ...(j % 2 ? { anchor: 'link text' } : {}),
        })),
      },
    };
  });
}
