/**
 * Reads of the SQLite store. Streams page through the tables by key (1000 rows a
 * query) instead of holding a cursor open, so that a long export neither keeps
 * the connection busy nor loads a table into memory.
 */
import type { Database } from 'better-sqlite3';
import type { BodyFiles } from './bodies.js';
import {
  historyRecord,
  pageRecord,
  type HistoryRow as SharedHistoryRow,
  type PageRow as SharedPageRow,
  type UrlRow,
  urlRecord,
} from './rows.js';
import { STATE_CODE } from './schema.js';
import type { FoundUrl } from './sqlite-statements.js';
import { errorCounts } from './tally.js';
import type {
  HistoryRecord,
  HostStats,
  LinkRecord,
  PageRecord,
  StateCounts,
  StoreStats,
  UrlRecord,
  UrlState,
  WaitingUrl,
} from './types.js';

const PAGE_ROWS = 1000;
/** Pages whose links are read at once. */
const LINK_PAGES = 100;

type Guard = <T>(op: string, fn: () => T) => T;

/** SQLite's rows carry their key, for the next page of an iteration. */
type HistoryRow = SharedHistoryRow & { id: number };
type PageRow = SharedPageRow & { url_id: number };

interface LinkRow {
  url_id: number;
  url: string;
  /** JSON: [to, anchor][] */
  links: string;
}

// A redirect's target by its id, or, when the target was trimmed from the frontier
// since, by the location its last history row recorded.
const URL_COLUMNS = `u.id, u.url, u.state, u.depth, u.priority, u.value, p.url AS parent, u.anchor, u.context,
  u.discovered_at, u.attempts, u.retry_at, CASE WHEN u.state = 5 THEN coalesce(
    (SELECT url FROM urls WHERE id = u.redirect_id),
    (SELECT location FROM history WHERE url_id = u.id AND state = 5 ORDER BY id DESC LIMIT 1)
  ) END AS redirect_to
  FROM urls u LEFT JOIN urls p ON p.id = u.parent_id`;

function prepareReads(db: Database) {
  const historySql = (where: string) =>
    `SELECT h.id, u.url, h.fetched_at, h.status, h.state, h.relevance, h.depth, h.error, h.location,
       h.attempt, h.retry_at, h.fetch_ms
     FROM history h JOIN urls u ON u.id = h.url_id ${where} ORDER BY h.fetched_at, h.id LIMIT ${PAGE_ROWS}`;
  const pagesSql = `SELECT p.url_id, u.url, u.state, u.depth, p.fetched_at, p.status, p.content_type, p.bytes,
     p.title, p.relevance, p.content_hash, p.body_file, p.page_rank, p.score, p.simhash, p.text_hash,
     d.url AS duplicate_of, p.duplicate_kind, p.duplicate_distance, p.etag, p.last_modified,
     p.modified_at
     FROM pages p JOIN urls u ON u.id = p.url_id LEFT JOIN urls d ON d.id = p.duplicate_of
     WHERE p.url_id > ? ORDER BY p.url_id LIMIT ${PAGE_ROWS}`;
  return {
    counters: db.prepare<[], { name: string; n: number }>('SELECT name, n FROM counters'),
    timeRange: db.prepare<[], { first: number | null; last: number | null }>(
      'SELECT (SELECT min(fetched_at) FROM history) AS first, (SELECT max(fetched_at) FROM history) AS last',
    ),
    topHosts: db.prepare<[number], HostStats>(
      `SELECT host, discovered, complete + discard + error AS fetched, complete, discard, error, redirect, bytes
       FROM hosts ORDER BY fetched DESC, discovered DESC, host LIMIT ?`,
    ),
    // Walks history_errors: the error rows only.
    errors: db
      .prepare<[], [string, number]>(
        'SELECT error, count(*) FROM history WHERE state = 4 AND error IS NOT NULL GROUP BY error',
      )
      .raw(),
    seeds: db.prepare<[], string>('SELECT url FROM seeds ORDER BY rowid').pluck(),
    keywords: db.prepare<[], { word: string; weight: number }>(
      'SELECT word, weight FROM keywords ORDER BY weight DESC, word',
    ),
    meta: db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck(),
    historyFirst: db.prepare<[], HistoryRow>(historySql('')),
    historyNext: db.prepare<[number, number], HistoryRow>(
      historySql('WHERE (h.fetched_at, h.id) > (?, ?)'),
    ),
    pages: db.prepare<[number], PageRow>(pagesSql),
    urlsAll: db.prepare<[number], UrlRow>(
      `SELECT ${URL_COLUMNS} WHERE u.id > ? ORDER BY u.id LIMIT ${PAGE_ROWS}`,
    ),
    urlsIn: db.prepare<[number, number], UrlRow>(
      `SELECT ${URL_COLUMNS} WHERE u.id > ? AND u.state = ? ORDER BY u.id LIMIT ${PAGE_ROWS}`,
    ),
    // By id range through the primary key; `+state` keeps the planner off
    // urls_waiting, which would sort every waiting URL by id for each page.
    waiting: db.prepare<[number, number], WaitingUrl>(
      `SELECT id, url, depth, priority, value, anchor, context FROM urls
       WHERE id > ? AND +state = 0 ORDER BY id LIMIT ?`,
    ),
    links: db.prepare<[number], LinkRow>(
      `SELECT l.url_id, u.url, l.links FROM page_links l JOIN urls u ON u.id = l.url_id
       WHERE l.url_id > ? ORDER BY l.url_id LIMIT ${LINK_PAGES}`,
    ),
    bodyFile: db
      .prepare<[number], string | null>('SELECT body_file FROM pages WHERE url_id = ?')
      .pluck(),
  };
}

export class SqliteReader {
  readonly #q: ReturnType<typeof prepareReads>;
  readonly #bodies: BodyFiles;
  readonly #guard: Guard;
  readonly #find: (url: string) => FoundUrl | undefined;

  constructor(
    db: Database,
    bodies: BodyFiles,
    find: (url: string) => FoundUrl | undefined,
    guard: Guard,
  ) {
    this.#q = prepareReads(db);
    this.#bodies = bodies;
    this.#find = find;
    this.#guard = guard;
  }

  counts(): StateCounts {
    return this.#guard('counts', () => {
      const c = this.#counters();
      return {
        waiting: c.get('waiting') ?? 0,
        processing: c.get('processing') ?? 0,
        complete: c.get('complete') ?? 0,
        discard: c.get('discard') ?? 0,
        error: c.get('error') ?? 0,
        redirect: c.get('redirect') ?? 0,
      };
    });
  }

  #counters(): Map<string, number> {
    return new Map(this.#q.counters.all().map((r) => [r.name, r.n]));
  }

  stats(topHosts: number): StoreStats {
    const counts = this.counts();
    return this.#guard('stats', () => {
      const c = this.#counters();
      const range = this.#q.timeRange.get();
      return {
        counts,
        discovered: c.get('discovered') ?? 0,
        dropped: c.get('dropped') ?? 0,
        fetched: c.get('fetched') ?? 0,
        retries: c.get('retries') ?? 0,
        responses: c.get('responses') ?? 0,
        redirects: c.get('redirects') ?? 0,
        errors: errorCounts(this.#q.errors.all()),
        failed: counts.error,
        rejected: counts.discard,
        bytes: c.get('bytes') ?? 0,
        firstFetchAt: range?.first ?? null,
        lastFetchAt: range?.last ?? null,
        topHosts: topHosts === 0 ? [] : this.#q.topHosts.all(topHosts),
        duplicates: { exact: c.get('dup_exact') ?? 0, near: c.get('dup_near') ?? 0 },
      };
    });
  }

  seeds(): string[] {
    return this.#guard('getSeeds', () => this.#q.seeds.all());
  }

  keywords(): Map<string, number> {
    return this.#guard(
      'getKeywords',
      () => new Map(this.#q.keywords.all().map((r) => [r.word, r.weight])),
    );
  }

  meta(key: string): unknown {
    const text = this.#guard('getMeta', () => this.#q.meta.get(key));
    return text === undefined ? undefined : JSON.parse(text);
  }

  async *history(): AsyncGenerator<HistoryRecord> {
    let rows = this.#guard('history', () => this.#q.historyFirst.all());
    while (rows.length > 0) {
      for (const r of rows) {
        yield historyRecord(r);
      }
      if (rows.length < PAGE_ROWS) return;
      const last = rows[rows.length - 1] as HistoryRow;
      rows = this.#guard('history', () => this.#q.historyNext.all(last.fetched_at, last.id));
    }
  }

  async *pages(): AsyncGenerator<PageRecord> {
    let after = 0;
    for (;;) {
      const rows = this.#guard('pages', () => this.#q.pages.all(after));
      for (const r of rows) {
        yield pageRecord(r);
      }
      if (rows.length < PAGE_ROWS) return;
      after = (rows[rows.length - 1] as PageRow).url_id;
    }
  }

  async *urls(state: UrlState | undefined): AsyncGenerator<UrlRecord> {
    let after = 0;
    for (;;) {
      const rows = this.#guard('urls', () =>
        state === undefined
          ? this.#q.urlsAll.all(after)
          : this.#q.urlsIn.all(after, STATE_CODE[state]),
      );
      for (const r of rows) {
        yield urlRecord(r);
      }
      if (rows.length < PAGE_ROWS) return;
      after = (rows[rows.length - 1] as UrlRow).id;
    }
  }

  scanWaiting(afterId: number, limit: number): WaitingUrl[] {
    return this.#guard('scanWaiting', () => this.#q.waiting.all(afterId, limit));
  }

  async *links(): AsyncGenerator<LinkRecord> {
    let after = 0;
    for (;;) {
      const rows = this.#guard('links', () => this.#q.links.all(after));
      for (const r of rows) {
        for (const [to, anchor] of JSON.parse(r.links) as [string, string | null][]) {
          yield { from: r.url, to, anchor };
        }
      }
      if (rows.length < LINK_PAGES) return;
      after = (rows[rows.length - 1] as LinkRow).url_id;
    }
  }

  async readBody(url: string): Promise<Buffer | null> {
    const file = this.#guard('readBody', () => {
      const id = this.#find(url)?.id;
      return id === undefined ? undefined : this.#q.bodyFile.get(id);
    });
    return file == null ? null : this.#bodies.read(url, file);
  }
}
