/**
 * Duplicate detection for the pages a crawl keeps: exact duplicates (the same
 * content key) and near duplicates (SimHashes at most `maxDistance` bits apart).
 *
 * Lifecycle, per page: `check({ text })` → if `duplicate` is null the page is new:
 * store it, then `add(id, simhash, contentHash)` with the values `check` returned
 * (store them too: `simhashHex(simhash)`, `contentHash`). A page reported as a
 * duplicate is not added. On resume, `DuplicateDetector.fromRows(rows)` (or `addRows`)
 * rebuilds the detector from the stored `{ id, simhash, contentHash }` of kept pages.
 *
 * The content key is, by default, the text hash: a 64-bit hash of the page text's
 * token sequence (see simhash.ts), so pages whose visible text is the same are exact
 * duplicates even when their markup differs (session ids in links, scripts, ads),
 * and it costs nothing: it is taken in the same pass as the SimHash. A caller may
 * pass its own key (for example the MD5 of the body) as `contentHash`; keys are
 * compared as strings, so one detector must be fed keys of one kind.
 *
 * A text too short to fingerprint (fewer than `minFeatures` features) is never a
 * duplicate and never the original of one: `check` gives `duplicate: null` and null
 * `simhash` and `contentHash`, and `add` ignores a null SimHash.
 */
import { StoreError } from '../errors/index.js';
import { parseSimhash, type SimHash } from './fingerprint.js';
import { ExactIndex } from './index-exact.js';
import { NearDuplicateIndex } from './index-near.js';
import {
  type DuplicateDetectorOptions,
  duplicateDetectorOptionsSchema,
  parseOptions,
  type ResolvedDuplicateDetectorOptions,
} from './options.js';
import { createFingerprinter, type Fingerprinter, type TextFingerprint } from './simhash.js';

export interface DuplicateCheckInput {
  /** The page's visible text (blocks on their own lines, as the parser gives it). */
  text: string;
  /** The page's exact-duplicate key; by default the text hash. */
  contentHash?: string;
  /** `fingerprint(text)` computed already (on another thread): not computed again. */
  fingerprint?: TextFingerprint;
}

export interface Duplicate {
  /** 'exact': the same content key; 'near': SimHash within `maxDistance`. */
  kind: 'exact' | 'near';
  /** Id of the stored page this one duplicates (the smallest id among the nearest). */
  of: number;
  /** Hamming distance between the SimHashes (0 for an exact duplicate). */
  distance: number;
}

export interface DuplicateCheck {
  /** The page this one duplicates, or null. */
  duplicate: Duplicate | null;
  /** The page's SimHash (store it with simhashHex); null when the text is too short. */
  simhash: SimHash | null;
  /** The page's content key as given or computed; null when the text is too short. */
  contentHash: string | null;
  /** Features the SimHash was taken over. */
  features: number;
}

/** A stored page, as kept for rebuilding the detector on resume. */
export interface DedupRow {
  id: number;
  /** 16 hex digits (simhashHex), or null for a page too short to fingerprint. */
  simhash: string | null;
  contentHash: string | null;
}

export class DuplicateDetector {
  /** The validated options with their defaults. */
  readonly options: Readonly<ResolvedDuplicateDetectorOptions>;
  private readonly fingerprinter: Fingerprinter;
  private readonly near: NearDuplicateIndex;
  private readonly exact = new ExactIndex();

  /**
   * @throws InvalidOptionError (FC_ERR_INVALID_OPTION) naming the field, on a bad or
   *   unknown option.
   */
  constructor(options: DuplicateDetectorOptions = {}) {
    const o = parseOptions(duplicateDetectorOptionsSchema, options, 'duplicate detector');
    this.options = Object.freeze(o);
    const { maxDistance, ...fingerprint } = o;
    this.fingerprinter = createFingerprinter(fingerprint);
    this.near = new NearDuplicateIndex(maxDistance);
  }

  /** A detector holding the stored pages `rows` (see {@link addRows}). */
  static fromRows(rows: Iterable<DedupRow>, options: DuplicateDetectorOptions = {}) {
    const d = new DuplicateDetector(options);
    d.addRows(rows);
    return d;
  }

  /** Number of fingerprints held. */
  get size(): number {
    return this.near.size;
  }

  /** Approximate bytes held by the detector's indexes. */
  get byteLength(): number {
    return this.near.byteLength + this.exact.byteLength;
  }

  /** The page text's SimHash, text hash and feature count, with this detector's options. */
  fingerprint(text: string): TextFingerprint {
    return this.fingerprinter(text);
  }

  /**
   * Whether the page duplicates a page added before: an exact duplicate first, else
   * the nearest near duplicate (ties: the smallest id). Does not add the page.
   */
  check(input: DuplicateCheckInput): DuplicateCheck {
    const f = input.fingerprint ?? this.fingerprinter(input.text);
    if (f.simhash === null) {
      return { duplicate: null, simhash: null, contentHash: null, features: f.features };
    }
    const contentHash = input.contentHash ?? (f.textHash as string);
    let duplicate: Duplicate | null = null;
    const same = this.exact.get(contentHash);
    if (same !== undefined) {
      duplicate = { kind: 'exact', of: same, distance: 0 };
    } else {
      const m = this.near.find(f.simhash);
      if (m !== null) duplicate = { kind: 'near', of: m.id, distance: m.distance };
    }
    return { duplicate, simhash: f.simhash, contentHash, features: f.features };
  }

  /**
   * Records a kept page: its SimHash and content key as `check` returned them. A
   * null SimHash (text too short) is ignored; a null content key adds the SimHash
   * alone.
   */
  add(id: number, simhash: SimHash | null, contentHash: string | null): void {
    if (simhash === null) return;
    this.near.add(id, simhash);
    if (contentHash !== null) this.exact.add(contentHash, id);
  }

  /**
   * Adds stored pages, e.g. when a crawl resumes: `simhash` as 16 hex digits.
   * @throws StoreError (FC_ERR_STORE) naming the row, when a SimHash is malformed.
   */
  addRows(rows: Iterable<DedupRow>): void {
    for (const row of rows) {
      if (row.simhash === null) continue;
      let fp: SimHash;
      try {
        fp = parseSimhash(row.simhash);
      } catch (cause) {
        throw new StoreError(
          `Duplicate detector rows: row ${row.id} has simhash ${JSON.stringify(row.simhash)}, expected 16 hex digits`,
          { cause },
        );
      }
      this.add(row.id, fp, row.contentHash);
    }
  }
}
