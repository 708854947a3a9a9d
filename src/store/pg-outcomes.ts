/**
 * The plan of a commit on the PostgreSQL store: its outcomes applied one by one, in
 * memory, to the URLs they touch (read, and the ones it changes locked, before), as
 * the SQLite store applies them to its tables (sqlite-urls.ts `applyOutcomes`), with
 * the same checks and errors in the same order. The plan is then written in a fixed
 * number of set-based statements (pg-outcome-writes.ts), whatever the number of
 * outcomes, redirects included.
 */
import { InvalidOptionError } from '../errors/index.js';
import { bodyFileName } from './bodies.js';
import type { FieldValue } from './field-types.js';
import type { PgUrlRow } from './pg-find.js';
import { type Hop, recordHops } from './pg-redirects.js';
import type { PreparedText } from './pg-search-index.js';
import { STATE_CODE, STATE_NAME } from './schema.js';
import { stateError } from './sqlite-urls.js';
import type { Tally } from './tally.js';
import type { NewUrl, UrlState } from './types.js';
import type { EncodedOutcome, EncodedPage } from './wire.js';

/** A body compressed before the transaction, and the MD5 (hex) of its bytes. */
export interface PackedBody {
  gz: Buffer;
  md5: string;
}

/** A raise of a new URL by an item of the commit (its first item included). */
export interface Raise {
  priority: number;
  value: number;
  context: string | null;
}

/** A URL as the plan stands: a stored row, or one the commit inserts. */
export interface PlanUrl {
  url: string;
  /** The stored id; for a new URL, drawn when the plan is written. */
  id: number;
  isNew: boolean;
  state: number;
  depth: number;
  priority: number;
  value: number;
  context: string | null;
  attempts: number;
  /** New URLs only: the parent (a URL of the plan, or a stored id), anchor, discovery time. */
  parent: PlanUrl | number | null;
  anchor: string | null;
  discoveredAt: number;
  /** Set by a failed attempt; undefined: unchanged. */
  retryAt?: number;
  /** Set for a redirect: its target (null when none); undefined: unchanged. */
  redirectTo?: PlanUrl | null;
  /** New URLs: the state they were counted in when added, and their raises in order. */
  addedAs?: UrlState;
  raises?: Raise[];
}

export interface PlanHistory {
  at: PlanUrl;
  fetchedAt: number;
  status: number | null;
  state: number;
  relevance: number | null;
  depth: number;
  error: string | null;
  location: string | null;
  attempt: number;
  retryAt: number | null;
  fetchMs: number | null;
}

export interface PlanPage {
  at: PlanUrl;
  page: EncodedPage;
  /** The name of its stored body. */
  body: string | null;
  hash: string | null;
  dupOf: PlanUrl | null;
}

/** The verb of an outcome in messages (as the other stores word them). */
const VERB: Record<string, string> = {
  complete: 'complete',
  discard: 'discard',
  error: 'fail',
  redirect: 'redirect',
};

/** The text of an outcome to index: a complete page's, when it has text or a title. */
export function textToIndex(o: EncodedOutcome): { title: string | null; text: string } | null {
  if (o.state !== 'complete') return null;
  const p = o.result;
  return typeof p.text === 'string' && (p.text || p.title)
    ? { title: p.title ?? null, text: p.text }
    : null;
}

export class CommitPlan {
  readonly t: Tally;
  readonly #urls = new Map<string, PlanUrl>();
  /** New URLs, in the order they were found (their ids follow it). */
  readonly created: PlanUrl[] = [];
  /** Stored URLs the plan changes. */
  readonly changed = new Set<PlanUrl>();
  readonly history: PlanHistory[] = [];
  readonly pages: PlanPage[] = [];
  readonly links = new Map<PlanUrl, string>();
  readonly fields = new Map<PlanUrl, readonly FieldValue[]>();
  /** The searchable text of complete pages, prepared before the transaction. */
  readonly texts: [PlanUrl, PreparedText][] = [];
  readonly bodies = new Map<string, Buffer>();
  readonly #now = Date.now();

  /** `rows`: the stored URLs the outcomes may touch, as read (the ones changed, locked). */
  constructor(rows: Iterable<PgUrlRow>, t: Tally) {
    this.t = t;
    for (const r of rows) {
      this.#urls.set(r.url, {
        url: r.url,
        id: r.id,
        isNew: false,
        state: r.state,
        depth: r.depth,
        priority: r.priority,
        value: r.value,
        context: r.context,
        attempts: r.attempts,
        parent: r.parent_id,
        anchor: r.anchor,
        discoveredAt: 0,
      });
    }
  }

  get(url: string): PlanUrl | undefined {
    return this.#urls.get(url);
  }

  /** Changes a URL of the plan. */
  set(u: PlanUrl, change: Partial<PlanUrl>): void {
    Object.assign(u, change);
    if (!u.isNew) this.changed.add(u);
  }

  /** A URL new to the store, added in `state`. */
  #create(u: Omit<PlanUrl, 'id' | 'isNew' | 'attempts'>, state: UrlState): PlanUrl {
    const row: PlanUrl = { ...u, id: 0, isNew: true, attempts: 0, addedAs: state };
    this.#urls.set(u.url, row);
    this.created.push(row);
    return row;
  }

  /**
   * Inserts `url` in `state` like the claimed URL `like` (depth, priority, value,
   * parent, anchor, context), discovered at `at`: a redirect's hop or target.
   */
  insertLike(url: string, like: PlanUrl, state: UrlState, at: number): PlanUrl {
    return this.#create(
      {
        url,
        state: STATE_CODE[state],
        depth: like.depth,
        priority: like.priority,
        value: like.value,
        context: like.context,
        parent: like.parent,
        anchor: like.anchor,
        discoveredAt: at,
      },
      state,
    );
  }

  addHistory(h: PlanHistory): void {
    this.history.push(h);
  }

  /**
   * Queues the unknown URLs of `items` as waiting and raises known waiting ones (as
   * `addUrls`); `page` is the parent of items that name none.
   */
  queue(where: string, items: readonly NewUrl[], page: PlanUrl): void {
    for (let i = 0; i < items.length; i++) {
      const it = items[i] as NewUrl;
      let parent = page;
      if (it.parent !== undefined) {
        const p = this.get(it.parent);
        if (p === undefined) {
          throw new InvalidOptionError(`${where}[${i}].parent: ${it.parent} is not a known URL`);
        }
        parent = p;
      }
      const raise = { priority: it.priority, value: it.value ?? 0, context: it.context ?? null };
      const known = this.get(it.url);
      if (known !== undefined) {
        if (known.state === STATE_CODE.waiting && it.priority > known.priority) {
          const context = raise.context ?? known.context;
          this.set(known, { priority: raise.priority, value: raise.value, context });
          known.raises?.push(raise);
        }
        continue;
      }
      const row = this.#create(
        {
          url: it.url,
          state: STATE_CODE.waiting,
          depth: it.depth,
          ...raise,
          parent,
          anchor: it.anchor ?? null,
          discoveredAt: it.discoveredAt ?? this.#now,
        },
        'waiting',
      );
      row.raises = [raise];
    }
  }

  /**
   * Applies one outcome; `body` is its body, compressed, `text` its searchable text
   * when it is a complete page with text (`textToIndex`), prepared for the index.
   */
  apply(o: EncodedOutcome, body: PackedBody | undefined, text?: PreparedText): void {
    const row = this.get(o.url);
    if (row?.state !== STATE_CODE.processing) {
      throw stateError(VERB[o.state] ?? o.state, o.url, row?.state);
    }
    const at = o.result.fetchedAt;
    if (o.state === 'error' && o.result.retryAt != null) {
      // A failed attempt (never with redirects): back to waiting until its retry time.
      const f = o.result;
      const retryAt = o.result.retryAt;
      this.set(row, { state: STATE_CODE.waiting, attempts: row.attempts + 1, retryAt });
      this.addHistory({
        at: row,
        fetchedAt: at,
        status: f.status ?? null,
        state: STATE_CODE.error,
        relevance: null,
        depth: row.depth,
        error: f.error,
        location: null,
        attempt: row.attempts,
        retryAt,
        fetchMs: f.fetchMs ?? null,
      });
      this.t.retried(o.url);
      return;
    }
    const steps = o.result.redirects ?? [];
    const hops = recordHops(this, row, steps, at);
    const last = steps[steps.length - 1];
    const url = last === undefined ? o.url : last.location;
    const known = last === undefined ? row : this.get(url);
    let target: PlanUrl | undefined;
    let from: UrlState | null = null;
    if (o.state === 'redirect') {
      if (known === undefined) this.insertLike(url, row, 'waiting', at);
    } else if (known === undefined) {
      target = this.insertLike(url, row, o.state, at);
    } else if (
      known.state === STATE_CODE.processing
        ? last === undefined
        : known.state === STATE_CODE.waiting
    ) {
      target = known;
      from = STATE_NAME[known.state] as UrlState;
      this.set(known, { state: STATE_CODE[o.state] });
    }
    this.#point(hops);
    // The target is processing or final: the page is dropped.
    if (target === undefined || o.state === 'redirect') return;
    if (o.state === 'error') {
      const f = o.result;
      this.set(target, { attempts: target.attempts + 1 });
      this.addHistory({
        at: target,
        fetchedAt: at,
        status: f.status ?? null,
        state: STATE_CODE.error,
        relevance: null,
        depth: target.depth,
        error: f.error,
        location: null,
        attempt: target.attempts,
        retryAt: null,
        fetchMs: f.fetchMs ?? null,
      });
      this.t.fetchedOne(url, 'error', 0, f.status != null, from);
      return;
    }
    this.#page(o.url, o.state, target, o.result, { body, text }, from);
  }

  /** Each hop remembers its target. */
  #point(hops: readonly Hop[]): void {
    for (const [hop, to] of hops) this.set(hop, { redirectTo: this.get(to) ?? null });
  }

  /** The page of the outcome of `url`, recorded at `at` (`from`: the state it leaves). */
  #page(
    url: string,
    state: 'complete' | 'discard',
    at: PlanUrl,
    p: EncodedPage,
    { body, text }: { body: PackedBody | undefined; text: PreparedText | undefined },
    from: UrlState | null,
  ): void {
    const dup = p.duplicate ?? null;
    let dupOf: PlanUrl | null = null;
    if (dup !== null) {
      dupOf = this.get(dup.of) ?? null;
      if (dupOf === null) {
        throw new InvalidOptionError(`commit ${url} duplicate.of: ${dup.of} is not a known URL`);
      }
      this.t.duplicate(dup.kind);
    }
    const name = bodyFileName(at.url);
    if (body !== undefined) this.bodies.set(name, body.gz);
    this.pages.push({
      at,
      page: p,
      body: body === undefined ? null : name,
      hash: p.contentHash ?? body?.md5 ?? null,
      dupOf,
    });
    if (text !== undefined) this.texts.push([at, text]);
    if (state === 'complete' && p.fields != null) this.fields.set(at, p.fields);
    if (p.linksJson !== undefined) this.links.set(at, p.linksJson);
    if (p.newUrls !== undefined) this.queue(`commit ${url} newUrls`, p.newUrls, at);
    this.addHistory({
      at,
      fetchedAt: p.fetchedAt,
      status: p.status,
      state: STATE_CODE[state],
      relevance: p.relevance,
      depth: at.depth,
      error: null,
      location: null,
      attempt: at.attempts + 1,
      retryAt: null,
      fetchMs: p.fetchMs ?? null,
    });
    this.t.fetchedOne(at.url, state, p.bytes, true, from);
  }
}
