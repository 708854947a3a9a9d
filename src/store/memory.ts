import { createHash } from 'node:crypto';
/**
 * A store held in memory, for tests, short crawls and as the reference
 * implementation of the contract. Nothing survives the process. Calls that can
 * fail are checked completely before anything changes, which is how a batch is
 * all-or-nothing here.
 */
import { InvalidOptionError, StoreError, StoreStateError } from '../errors/index.js';
import { bodyFileName, compressBody, decompressBody } from './bodies.js';
import { MemoryFrontier } from './memory-frontier.js';
import { MemoryText } from './memory-text.js';
import { OutcomeShortcuts } from './shortcuts.js';
import { Tally } from './tally.js';
import type {
  ClaimedUrl,
  ClaimOptions,
  HistoryRecord,
  HostStats,
  LinkRecord,
  NewUrl,
  Outcome,
  PageRecord,
  PageScores,
  PriorityChange,
  ScanWaitingOptions,
  StateCounts,
  Store,
  StoreStats,
  TextHit,
  TextSearch,
  UrlRecord,
  UrlState,
  WaitingUrl,
} from './types.js';
import { SEED_PRIORITY, URL_STATES } from './types.js';
import * as v from './validate.js';

const VERB: Record<string, string> = { complete: 'complete', discard: 'discard', error: 'fail' };

function stateError(verb: string, url: string, rec: UrlRecord | undefined): Error {
  const is = rec === undefined ? 'not a known URL' : rec.state;
  return new StoreStateError(`cannot ${verb} ${url}: it is ${is}, expected processing`, { url });
}

export class MemoryStore extends OutcomeShortcuts implements Store {
  readonly #f = new MemoryFrontier();
  readonly #urls = this.#f.urls;
  readonly #counts: StateCounts = { waiting: 0, processing: 0, complete: 0, discard: 0, error: 0 };
  #discovered = 0;
  #dropped = 0;
  #fetched = 0;
  #bytes = 0;
  #firstFetchAt: number | null = null;
  #lastFetchAt: number | null = null;
  readonly #hosts = new Map<string, HostStats>();
  readonly #pages = new Map<string, PageRecord & { id: number }>();
  readonly #links = new Map<string, LinkRecord[]>();
  readonly #history: HistoryRecord[] = [];
  readonly #bodies = new Map<string, Buffer>();
  readonly #text = new MemoryText();
  readonly #duplicates = { exact: 0, near: 0 };
  readonly #seeds = new Set<string>();
  #keywords = new Map<string, number>();
  readonly #meta = new Map<string, string>();
  readonly #pending = new Set<Promise<unknown>>();
  #closing = false;

  #open(op: string): void {
    if (this.#closing) throw new StoreError(`${op}: the memory store is closed`);
  }

  #apply(t: Tally): void {
    for (const [s, n] of t.states) this.#counts[s] += n;
    this.#discovered += t.discovered;
    this.#dropped += t.dropped;
    this.#fetched += t.fetched;
    this.#bytes += t.bytes;
    for (const [host, d] of t.hosts) {
      let h = this.#hosts.get(host);
      if (h === undefined) {
        h = { host, discovered: 0, fetched: 0, complete: 0, discard: 0, error: 0, bytes: 0 };
        this.#hosts.set(host, h);
      }
      h.discovered += d[0];
      h.complete += d[1];
      h.discard += d[2];
      h.error += d[3];
      h.bytes += d[4];
      h.fetched = h.complete + h.discard + h.error;
    }
  }

  async addUrls(items: readonly NewUrl[]): Promise<number> {
    this.#open('addUrls');
    v.checkNewUrls('addUrls', items);
    this.#f.checkParents('addUrls', items, new Set());
    const t = new Tally();
    const n = this.#f.add(items, null, t);
    this.#apply(t);
    return n;
  }

  async addSeeds(urls: readonly string[], options?: { priority?: number }): Promise<number> {
    this.#open('addSeeds');
    v.checkUrlList('addSeeds', urls);
    v.checkPriorityOption('addSeeds options', options);
    const priority = options?.priority ?? SEED_PRIORITY;
    for (const u of urls) this.#seeds.add(u);
    const t = new Tally();
    const n = this.#f.add(
      urls.map((url) => ({ url, depth: 0, priority })),
      null,
      t,
    );
    this.#apply(t);
    return n;
  }

  async getSeeds(): Promise<string[]> {
    this.#open('getSeeds');
    return [...this.#seeds];
  }

  async claim(n: number, options?: ClaimOptions): Promise<ClaimedUrl[]> {
    this.#open('claim');
    v.checkInt('claim(n)', n, 1);
    const out = this.#f.claim(n, v.checkClaimOptions('claim options', options));
    this.#counts.waiting -= out.length;
    this.#counts.processing += out.length;
    return out;
  }

  override commit(outcomes: readonly Outcome[]): Promise<void> {
    const p = this.#commit(outcomes);
    this.#pending.add(p);
    const done = () => this.#pending.delete(p);
    p.then(done, done);
    return p;
  }

  #checkOutcomes(outcomes: readonly Outcome[]): void {
    const seen = new Set<string>();
    const added = new Set<string>();
    for (const o of outcomes) {
      const rec = this.#urls.get(o.url);
      if (rec?.state !== 'processing' || seen.has(o.url)) {
        const shown = seen.has(o.url) ? { ...(rec as UrlRecord), state: o.state } : rec;
        throw stateError(VERB[o.state] ?? o.state, o.url, shown as UrlRecord | undefined);
      }
      seen.add(o.url);
      const dup = o.state === 'error' ? null : (o.result.duplicate ?? null);
      if (dup !== null && !this.#urls.has(dup.of) && !added.has(dup.of)) {
        throw new InvalidOptionError(`commit ${o.url} duplicate.of: ${dup.of} is not a known URL`);
      }
      if (o.state !== 'error' && o.result.newUrls !== undefined) {
        this.#f.checkParents(`commit ${o.url} newUrls`, o.result.newUrls, added);
      }
    }
  }

  async #commit(outcomes: readonly Outcome[]): Promise<void> {
    this.#open('commit');
    v.checkOutcomes('commit', outcomes);
    this.#checkOutcomes(outcomes);
    const zipped = new Map<string, Buffer>();
    await Promise.all(
      outcomes.map(async (o) => {
        if (o.state !== 'error' && o.result.body !== undefined) {
          zipped.set(o.url, await compressBody(o.result.body));
        }
      }),
    );
    this.#checkOutcomes(outcomes); // states may have moved while compressing
    const t = new Tally();
    for (const o of outcomes) {
      const rec = this.#urls.get(o.url) as UrlRecord;
      rec.state = o.state;
      const r = o.result;
      this.#firstFetchAt = Math.min(this.#firstFetchAt ?? r.fetchedAt, r.fetchedAt);
      this.#lastFetchAt = Math.max(this.#lastFetchAt ?? r.fetchedAt, r.fetchedAt);
      if (o.state === 'error') {
        const f = o.result;
        this.#history.push({
          url: o.url,
          fetchedAt: f.fetchedAt,
          status: f.status ?? null,
          state: 'error',
          relevance: null,
          depth: rec.depth,
          error: f.error,
        });
        t.fetchedOne(o.url, 'error', 0);
        continue;
      }
      const p = o.result;
      const body = zipped.get(o.url);
      if (body !== undefined) this.#bodies.set(o.url, body);
      this.#pages.set(o.url, {
        id: rec.id,
        url: o.url,
        state: o.state,
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
        bodyFile: body === undefined ? null : bodyFileName(o.url),
        pageRank: null,
        score: null,
        simhash: p.simhash ?? null,
        textHash: p.textHash ?? null,
        duplicate: p.duplicate ? { ...p.duplicate } : null,
      });
      if (p.duplicate) this.#duplicates[p.duplicate.kind]++;
      if (o.state === 'complete' && typeof p.text === 'string' && (p.text || p.title)) {
        this.#text.add(rec.id, o.url, p.title, p.text);
      }
      if (p.links !== undefined) {
        this.#links.delete(o.url);
        this.#links.set(
          o.url,
          p.links.map((l) => ({ from: o.url, to: l.url, anchor: l.anchor ?? null })),
        );
      }
      if (p.newUrls !== undefined) this.#f.add(p.newUrls, o.url, t);
      this.#history.push({
        url: o.url,
        fetchedAt: p.fetchedAt,
        status: p.status,
        state: o.state,
        relevance: p.relevance,
        depth: rec.depth,
        error: null,
      });
      t.fetchedOne(o.url, o.state, p.bytes);
    }
    this.#apply(t);
  }

  async reclaim(urls: readonly string[], options?: { priority?: number }): Promise<number> {
    this.#open('reclaim');
    v.checkUrlList('reclaim', urls);
    v.checkPriorityOption('reclaim options', options);
    const seen = new Set<string>();
    for (const u of urls) {
      const rec = this.#urls.get(u);
      if (rec?.state !== 'processing' || seen.has(u)) {
        throw stateError(
          'reclaim',
          u,
          seen.has(u) ? { ...(rec as UrlRecord), state: 'waiting' } : rec,
        );
      }
      seen.add(u);
    }
    for (const u of urls) this.#requeue(this.#urls.get(u) as UrlRecord, options?.priority);
    return urls.length;
  }

  #requeue(rec: UrlRecord, priority: number | undefined): void {
    this.#f.requeue(rec, priority);
    this.#counts.processing--;
    this.#counts.waiting++;
  }

  async recover(): Promise<number> {
    this.#open('recover');
    let n = 0;
    for (const rec of this.#urls.values()) {
      if (rec.state === 'processing') {
        this.#requeue(rec, undefined);
        n++;
      }
    }
    return n;
  }

  async trimWaiting(max: number): Promise<number> {
    this.#open('trimWaiting');
    v.checkInt('trimWaiting(max)', max, 0);
    if (this.#counts.waiting <= max) return 0;
    const dropped = this.#f.trim(max);
    this.#counts.waiting -= dropped;
    this.#dropped += dropped;
    return dropped;
  }

  async scanWaiting(options: ScanWaitingOptions): Promise<WaitingUrl[]> {
    this.#open('scanWaiting');
    const { afterId, limit } = v.checkScanOptions('scanWaiting options', options);
    return this.#f.scanWaiting(afterId, limit);
  }

  async reprioritize(items: readonly PriorityChange[]): Promise<number> {
    this.#open('reprioritize');
    return this.#f.reprioritize(v.checkPriorityChanges('reprioritize', items).values());
  }

  async counts(): Promise<StateCounts> {
    this.#open('counts');
    return { ...this.#counts };
  }

  async stats(options?: { topHosts?: number }): Promise<StoreStats> {
    this.#open('stats');
    const top = v.checkTopHosts('stats options', options);
    const hosts = [...this.#hosts.values()]
      .map((h) => ({ ...h }))
      .sort(
        (a, b) =>
          b.fetched - a.fetched ||
          b.discovered - a.discovered ||
          (a.host < b.host ? -1 : a.host > b.host ? 1 : 0),
      );
    return {
      counts: { ...this.#counts },
      discovered: this.#discovered,
      dropped: this.#dropped,
      fetched: this.#fetched,
      failed: this.#counts.error,
      rejected: this.#counts.discard,
      bytes: this.#bytes,
      firstFetchAt: this.#firstFetchAt,
      lastFetchAt: this.#lastFetchAt,
      topHosts: hosts.slice(0, top),
      duplicates: { ...this.#duplicates },
    };
  }

  async setKeywords(
    keywords: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
  ): Promise<void> {
    this.#open('setKeywords');
    const entries = v.checkKeywords('setKeywords', keywords);
    this.#keywords = new Map(entries);
  }

  async getKeywords(): Promise<Map<string, number>> {
    this.#open('getKeywords');
    const e = [...this.#keywords].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return new Map(e);
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    this.#open('setMeta');
    v.checkMetaKey('setMeta', key);
    if (value === undefined) this.#meta.delete(key);
    else this.#meta.set(key, v.metaJson(`setMeta ${key}`, value));
  }

  async getMeta<T = unknown>(key: string): Promise<T | undefined> {
    this.#open('getMeta');
    v.checkMetaKey('getMeta', key);
    const text = this.#meta.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  async setPageScores(items: readonly PageScores[]): Promise<void> {
    this.#open('setPageScores');
    v.checkScores('setPageScores', items);
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

  async *history(): AsyncGenerator<HistoryRecord> {
    this.#open('history');
    const sorted = this.#history.slice().sort((a, b) => a.fetchedAt - b.fetchedAt);
    for (const h of sorted) yield { ...h };
  }

  async search(options: TextSearch): Promise<TextHit[]> {
    this.#open('search');
    return this.#text.search(options, (url) => this.#pages.get(url));
  }

  async *pages(): AsyncGenerator<PageRecord> {
    this.#open('pages');
    const sorted = [...this.#pages.values()].sort((a, b) => a.id - b.id);
    for (const { id: _id, ...p } of sorted) yield p;
  }

  urls(state?: UrlState): AsyncIterable<UrlRecord> {
    if (state !== undefined && !URL_STATES.includes(state)) {
      throw new InvalidOptionError(`urls(state): unknown state ${JSON.stringify(state)}`);
    }
    return this.#iterUrls(state);
  }

  async *#iterUrls(state: UrlState | undefined): AsyncGenerator<UrlRecord> {
    this.#open('urls');
    for (const r of [...this.#urls.values()]) {
      if (state === undefined || r.state === state) yield { ...r };
    }
  }

  async *links(): AsyncGenerator<LinkRecord> {
    this.#open('links');
    const byPage = [...this.#links].map(([from, list]) => ({
      id: this.#urls.get(from)?.id ?? 0,
      list,
    }));
    byPage.sort((a, b) => a.id - b.id);
    for (const { list } of byPage) for (const l of list) yield { ...l };
  }

  async readBody(url: string): Promise<Buffer | null> {
    this.#open('readBody');
    v.checkUrl('readBody', url);
    const data = this.#bodies.get(url);
    return data === undefined ? null : decompressBody(data, `memory body of ${url}`);
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await Promise.allSettled([...this.#pending]);
  }
}

/** A new, empty store in memory. */
export function createMemoryStore(): MemoryStore {
  return new MemoryStore();
}
