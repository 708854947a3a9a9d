/**
 * What the memory store records of fetches: the history, the pages with their
 * bodies, links and indexed text, duplicates and error codes. URLs and their
 * states live in `MemoryFrontier`.
 */

import { createHash } from 'node:crypto';
import { StoreStateError } from '../errors/index.js';
import { bodyFileName, decompressBody } from './bodies.js';
import { MemoryText } from './memory-text.js';
import type { VisitOutcome, VisitPage } from './revisit-types.js';
import { errorCode, errorCounts } from './tally.js';
import type { PageText, TextCoverage, UnindexedPage, UnindexedPagesOptions } from './text-types.js';
import type {
  FetchedPage,
  FetchFailure,
  HistoryRecord,
  LinkRecord,
  PageRecord,
  PageScores,
  RedirectStep,
  TextHit,
  TextSearch,
  UrlRecord,
} from './types.js';

export class MemoryRecords {
  readonly #pages = new Map<string, PageRecord & { id: number }>();
  readonly #links = new Map<string, LinkRecord[]>();
  readonly #history: HistoryRecord[] = [];
  readonly #bodies = new Map<string, Buffer>();
  readonly #text = new MemoryText();
  readonly duplicates = { exact: 0, near: 0 };
  /** Error history rows by code. */
  readonly #errors = new Map<string, number>();
  /** Each URL's last failure, for `requeueErrors`. */
  readonly #lastFailure = new Map<string, { error: string; status: number | null }>();
  firstFetchAt: number | null = null;
  lastFetchAt: number | null = null;

  #row(h: HistoryRecord): void {
    this.#history.push(h);
    this.firstFetchAt = Math.min(this.firstFetchAt ?? h.fetchedAt, h.fetchedAt);
    this.lastFetchAt = Math.max(this.lastFetchAt ?? h.fetchedAt, h.fetchedAt);
  }

  /** The history row of a hop whose URL (`rec`) became a redirect. */
  redirect(rec: UrlRecord, step: RedirectStep, fetchedAt: number): void {
    this.#row({
      url: rec.url,
      fetchedAt,
      status: step.status,
      state: 'redirect',
      relevance: null,
      depth: rec.depth,
      error: null,
      location: step.location,
      attempt: rec.attempts + 1,
      retryAt: null,
      fetchMs: null,
    });
  }

  /** The error row of `rec`, whose attempts count this failure already. */
  failure(rec: UrlRecord, f: FetchFailure): void {
    this.#row({
      url: rec.url,
      fetchedAt: f.fetchedAt,
      status: f.status ?? null,
      state: 'error',
      relevance: null,
      depth: rec.depth,
      error: f.error,
      location: null,
      attempt: rec.attempts,
      retryAt: f.retryAt ?? null,
      fetchMs: f.fetchMs ?? null,
    });
    this.#lastFailure.set(rec.url, { error: f.error, status: f.status ?? null });
    const code = errorCode(f.error);
    this.#errors.set(code, (this.#errors.get(code) ?? 0) + 1);
  }

  /** The page of `rec` (its URL: the final one), its body (gzipped), links, text and history row. */
  page(
    rec: UrlRecord,
    state: 'complete' | 'discard',
    p: FetchedPage,
    body: Buffer | undefined,
  ): void {
    const url = rec.url;
    if (body !== undefined) this.#bodies.set(url, body);
    this.#pages.set(url, {
      id: rec.id,
      url,
      state,
      depth: rec.depth,
      fetchedAt: p.fetchedAt,
      status: p.status,
      contentType: p.contentType ?? null,
      bytes: p.bytes,
      title: p.title ?? null,
      relevance: p.relevance,
      contentHash:
        p.contentHash ??
        (p.body === undefined ? null : createHash('md5').update(p.body).digest('hex')),
      bodyFile: body === undefined ? null : bodyFileName(url),
      pageRank: null,
      score: null,
      simhash: p.simhash ?? null,
      textHash: p.textHash ?? null,
      duplicate: p.duplicate ? { ...p.duplicate } : null,
      etag: p.etag ?? null,
      lastModified: p.lastModified ?? null,
      modifiedAt: p.modifiedAt ?? null,
    });
    if (p.duplicate) this.duplicates[p.duplicate.kind]++;
    if (state === 'complete' && typeof p.text === 'string' && (p.text || p.title)) {
      this.#text.add(rec.id, url, p.title, p.text);
    }
    if (p.links !== undefined) {
      this.#links.delete(url);
      this.#links.set(
        url,
        p.links.map((l) => ({ from: url, to: l.url, anchor: l.anchor ?? null })),
      );
    }
    this.#row({
      url,
      fetchedAt: p.fetchedAt,
      status: p.status,
      state,
      relevance: p.relevance,
      depth: rec.depth,
      error: null,
      location: null,
      attempt: rec.attempts + 1,
      retryAt: null,
      fetchMs: p.fetchMs ?? null,
    });
  }

  /** The last failure recorded for `url`. */
  lastFailure(url: string): { error: string; status: number | null } | undefined {
    return this.#lastFailure.get(url);
  }

  /** A revisit's new copy of a stored page: its fetch fields, hashes and body. */
  replacePage(url: string, v: VisitOutcome & { page: VisitPage }, body: Buffer | undefined): void {
    const p = this.#pages.get(url);
    if (p === undefined) return;
    Object.assign(p, {
      fetchedAt: v.at,
      status: v.page.status,
      contentType: v.page.contentType,
      bytes: v.page.bytes,
      title: v.page.title,
      relevance: v.page.relevance,
      contentHash: v.contentHash ?? null,
      textHash: v.textHash ?? null,
    });
    if (body !== undefined) {
      this.#bodies.set(url, body);
      p.bodyFile = bodyFileName(url);
    }
  }

  /** Whether `url` has a stored page; its hashes when it does. */
  pageOf(url: string): PageRecord | undefined {
    return this.#pages.get(url);
  }

  errors(): { code: string; count: number }[] {
    return errorCounts(this.#errors);
  }

  setScores(items: readonly PageScores[]): void {
    for (const s of items) {
      if (!this.#pages.has(s.url)) {
        throw new StoreStateError(`cannot score ${s.url}: it is not a fetched page`, {
          url: s.url,
        });
      }
    }
    for (const s of items) {
      const p = this.#pages.get(s.url) as PageRecord;
      if (s.pageRank !== undefined) p.pageRank = s.pageRank;
      if (s.score !== undefined) p.score = s.score;
    }
  }

  search(options: TextSearch): TextHit[] {
    return this.#text.search(options, (url) => this.#pages.get(url));
  }

  textCoverage(): TextCoverage {
    return this.#text.coverage(this.#pages.values());
  }

  unindexedPages(o: UnindexedPagesOptions): UnindexedPage[] {
    return this.#text.unindexed(this.#pages.values(), o, (url) => this.#bodies.has(url));
  }

  indexTexts(items: readonly PageText[]): number {
    return this.#text.addKept(items, (url) => this.#pages.get(url));
  }

  /** By `fetchedAt`, ties in the order recorded. */
  history(): HistoryRecord[] {
    return this.#history
      .slice()
      .sort((a, b) => a.fetchedAt - b.fetchedAt)
      .map((h) => ({ ...h }));
  }

  /** In discovery order. */
  pages(): PageRecord[] {
    return [...this.#pages.values()].sort((a, b) => a.id - b.id).map(({ id: _id, ...p }) => p);
  }

  /** In the discovery order of their pages (`idOf` gives a page's URL id). */
  links(idOf: (url: string) => number): LinkRecord[] {
    const byPage = [...this.#links].map(([from, list]) => ({ id: idOf(from), list }));
    byPage.sort((a, b) => a.id - b.id);
    return byPage.flatMap(({ list }) => list.map((l) => ({ ...l })));
  }

  async readBody(url: string): Promise<Buffer | null> {
    const data = this.#bodies.get(url);
    return data === undefined ? null : decompressBody(data, `memory body of ${url}`);
  }
}
