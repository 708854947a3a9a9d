/**
 * Duplicate detection in a crawl (docs/dedup.md): every page the crawl keeps is
 * fingerprinted (SimHash of its text and a hash of its words); a page whose words
 * are those of a page kept before is an exact duplicate, one whose SimHash is
 * within `dedupMaxDistance` bits of one is a near duplicate. Such a page is recorded
 * as a duplicate of that page (state discard, no body, no links followed); the
 * others are remembered. A resumed crawl rebuilds the detector from the fingerprints
 * the store kept.
 */
import { DuplicateDetector, simhashHex, type TextFingerprint } from '../dedup/index.js';
import type { PageDuplicate, Store } from '../store/index.js';

/** What `check` says of a page. */
export interface DedupVerdict {
  duplicate: PageDuplicate | null;
  /** To store with the page (null when the text is too short to fingerprint). */
  simhash: string | null;
  textHash: string | null;
}

export class CrawlDedup {
  readonly #detector: DuplicateDetector;
  /** URLs of the pages remembered, by the detector's id (their index here). */
  readonly #urls: string[] = [];

  private constructor(maxDistance: number) {
    this.#detector = new DuplicateDetector({ maxDistance });
  }

  /** A detector holding the kept pages of `store` that have fingerprints. */
  static async create(store: Store, maxDistance: number): Promise<CrawlDedup> {
    const d = new CrawlDedup(maxDistance);
    const rows: { id: number; simhash: string; contentHash: string | null }[] = [];
    for await (const p of store.pages()) {
      if (p.state !== 'complete' || p.simhash === null) continue;
      rows.push({ id: d.#urls.length, simhash: p.simhash, contentHash: p.textHash });
      d.#urls.push(p.url);
    }
    d.#detector.addRows(rows);
    return d;
  }

  /** Pages remembered. */
  get size(): number {
    return this.#urls.length;
  }

  /**
   * Whether the page of `url` with `text` duplicates a page kept before; remembers it
   * when not. `fingerprint`: the text's, computed already (analysis threads).
   */
  check(url: string, text: string, fingerprint?: TextFingerprint): DedupVerdict {
    const c = this.#detector.check(fingerprint ? { text, fingerprint } : { text });
    const simhash = c.simhash === null ? null : simhashHex(c.simhash);
    if (c.duplicate !== null) {
      const of = this.#urls[c.duplicate.of] as string;
      return {
        duplicate: { of, kind: c.duplicate.kind, distance: c.duplicate.distance },
        simhash,
        textHash: c.contentHash,
      };
    }
    if (c.simhash !== null) {
      this.#detector.add(this.#urls.length, c.simhash, c.contentHash);
      this.#urls.push(url);
    }
    return { duplicate: null, simhash, textHash: c.contentHash };
  }
}
