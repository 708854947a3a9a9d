/**
 * The read routes of the API (docs/api.md): status, pages, one page and its body,
 * search, the frontier, hosts, time series, exports. Each checks its query (params.ts)
 * and reads the store; none reads a file outside it.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { InvalidOptionError, isFocusCrawlError } from '../errors/index.js';
import {
  EXPORT_FORMATS,
  EXPORT_WHATS,
  type ExportFormat,
  exportChunks,
  exportOptionsSchema,
  readThresholdHistory,
} from '../export/index.js';
import { META_THRESHOLD } from '../relevance/index.js';
import {
  type PageRow,
  type Store,
  type TextHit,
  URL_STATES,
  type WaitingUrl,
} from '../store/index.js';
import { canonicalizeUrlOrThrow, hostOf } from '../url/index.js';
import { pageBody, pageDetails } from './page.js';
import {
  boolParam,
  enumParam,
  intParam,
  invalidInput,
  numParam,
  parseQuery,
  textParam,
} from './params.js';
import type { StatusSource } from './status.js';

/** Waiting URLs `/api/frontier` reads at most to find the best. */
export const FRONTIER_SCAN_MAX = 100_000;
/** Buckets `/api/series` returns at most (the latest). */
export const SERIES_MAX_BUCKETS = 5_000;

const SORTS = ['relevance', 'fetchedAt', 'rank'] as const;
const ORDERS = ['desc', 'asc'] as const;

const urlParam = () => textParam(8192);

/** The URL of a `url` parameter, canonical as the store keeps it. */
function canonical(url: string): string {
  try {
    return canonicalizeUrlOrThrow(url);
  } catch (e) {
    throw new InvalidOptionError(`url: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
  }
}

/** A store's complaint about `field` said with the API's parameter name. */
function renamed<T>(work: Promise<T>, from: RegExp, to: string): Promise<T> {
  return work.catch((e: unknown) => {
    if (isFocusCrawlError(e) && e.code === 'FC_ERR_INVALID_OPTION' && from.test(e.message)) {
      throw new InvalidOptionError(e.message.replace(from, to), { cause: e });
    }
    throw e;
  });
}

/** The best `limit` waiting URLs (priority, then discovery order), reading at most `max`. */
export async function bestWaiting(
  store: Store,
  limit: number,
  max = FRONTIER_SCAN_MAX,
): Promise<{
  items: (WaitingUrl & { host: string | null })[];
  scanned: number;
  complete: boolean;
}> {
  const best: WaitingUrl[] = [];
  const better = (a: WaitingUrl, b: WaitingUrl) =>
    a.priority > b.priority || (a.priority === b.priority && a.id < b.id);
  let afterId = 0;
  let scanned = 0;
  let complete = false;
  while (scanned < max) {
    const want = Math.min(5000, max - scanned);
    const batch = await store.scanWaiting({ afterId, limit: want });
    for (const w of batch) {
      if (best.length === limit && !better(w, best[limit - 1] as WaitingUrl)) continue;
      let i = best.length;
      while (i > 0 && better(w, best[i - 1] as WaitingUrl)) i--;
      best.splice(i, 0, w);
      if (best.length > limit) best.pop();
    }
    scanned += batch.length;
    if (batch.length < want) {
      complete = true;
      break;
    }
    afterId = (batch.at(-1) as WaitingUrl).id;
  }
  return { items: best.map((w) => ({ ...w, host: hostOf(w.url) })), scanned, complete };
}

/** Search hits as page rows (the index's fields, the rest from the history). */
async function hitRows(store: Store, hits: TextHit[]): Promise<(PageRow & { snippet: string })[]> {
  const out: (PageRow & { snippet: string })[] = [];
  for (const h of hits) {
    const history = await store.urlHistory(h.url);
    const last = history.at(-1);
    out.push({
      url: h.url,
      state: 'complete',
      host: hostOf(h.url) ?? '',
      depth: last?.depth ?? 0,
      relevance: h.relevance,
      rank: h.score,
      title: h.title,
      fetchedAt: last?.fetchedAt ?? null,
      status: last?.status ?? null,
      snippet: h.snippet,
    });
  }
  return out;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
  sql: 'application/sql; charset=utf-8',
  warc: 'application/warc',
};
const EXTENSIONS: Record<ExportFormat, string> = {
  jsonl: 'jsonl',
  csv: 'csv',
  xml: 'xml',
  html: 'html',
  sql: 'sql',
  warc: 'warc.gz',
};

export function readRoutes(
  app: FastifyInstance,
  store: Store,
  status: StatusSource,
  storeName: string | undefined,
): void {
  app.get('/api/status', async (req) => {
    parseQuery({}, req.query);
    return status.get();
  });

  app.get('/api/pages', async (req) => {
    const q = parseQuery(
      {
        state: enumParam(URL_STATES as unknown as [string, ...string[]]).optional(),
        minRelevance: numParam(0, 1).optional(),
        maxRelevance: numParam(0, 1).optional(),
        host: textParam(255).optional(),
        q: textParam(500).optional(),
        sort: enumParam(SORTS).optional(),
        order: enumParam(ORDERS).optional(),
        limit: intParam(1, 500).optional(),
        cursor: textParam(2000).optional(),
      },
      req.query,
    );
    if (
      q.minRelevance !== undefined &&
      q.maxRelevance !== undefined &&
      q.minRelevance > q.maxRelevance
    ) {
      throw new InvalidOptionError(
        `maxRelevance: expected a number ≥ minRelevance (${q.minRelevance}), got ${q.maxRelevance}`,
      );
    }
    const host = q.host?.toLowerCase();
    if (q.q !== undefined) {
      // Full text: the best matches, in the search's order (no cursor, no other sort).
      for (const p of ['sort', 'order', 'cursor'] as const) {
        if (q[p] !== undefined) {
          throw new InvalidOptionError(
            `${p}: does not go with q (matches come best first, one page)`,
          );
        }
      }
      if (q.state !== undefined && q.state !== 'complete') {
        throw new InvalidOptionError(
          `state: q searches the kept pages (complete), got "${q.state}"`,
        );
      }
      const hits = await renamed(
        store.search({ query: q.q, limit: 1000 }),
        /^search (?:options\.)?query/,
        'q',
      );
      const wanted = hits.filter(
        (h) =>
          (host === undefined || hostOf(h.url) === host) &&
          (q.minRelevance === undefined || h.relevance >= q.minRelevance) &&
          (q.maxRelevance === undefined || h.relevance <= q.maxRelevance),
      );
      return { items: await hitRows(store, wanted.slice(0, q.limit ?? 50)), next: null };
    }
    return renamed(
      store.listPages({
        ...(q.state !== undefined ? { state: q.state as PageRow['state'] } : {}),
        ...(q.minRelevance !== undefined ? { minRelevance: q.minRelevance } : {}),
        ...(q.maxRelevance !== undefined ? { maxRelevance: q.maxRelevance } : {}),
        ...(host !== undefined ? { host } : {}),
        ...(q.sort !== undefined ? { sort: q.sort } : {}),
        ...(q.order !== undefined ? { order: q.order } : {}),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
      }),
      /^listPages (?:query\.)?/,
      '',
    );
  });

  app.get('/api/page', async (req) => {
    const q = parseQuery({ url: urlParam() }, req.query);
    return pageDetails(store, canonical(q.url));
  });

  app.get('/api/page/body', async (req, reply) => {
    const q = parseQuery({ url: urlParam() }, req.query);
    const { body, contentType } = await pageBody(store, canonical(q.url));
    // A crawled page must not run as this server's page (the token lives there):
    // sandboxed, it is an origin of its own, with no scripts.
    return reply
      .type(contentType)
      .header('content-security-policy', 'sandbox')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });

  app.get('/api/search', async (req) => {
    const q = parseQuery({ q: textParam(500), limit: intParam(1, 100).optional() }, req.query);
    const hits = await renamed(
      store.search({ query: q.q, limit: q.limit ?? 20 }),
      /^search (?:options\.)?query/,
      'q',
    );
    return { items: hits };
  });

  app.get('/api/frontier', async (req) => {
    const q = parseQuery({ limit: intParam(1, 500).optional() }, req.query);
    return bestWaiting(store, q.limit ?? 50);
  });

  app.get('/api/hosts', async (req) => {
    const q = parseQuery({ limit: intParam(1, 1000).optional() }, req.query);
    const stats = await store.stats({ topHosts: q.limit ?? 50 });
    return { items: stats.topHosts };
  });

  app.get('/api/series', async (req) => {
    const q = parseQuery(
      {
        bucketMs: intParam(1000, 86_400_000).optional(),
        since: intParam(0, Number.MAX_SAFE_INTEGER).optional(),
      },
      req.query,
    );
    const bucketMs = q.bucketMs ?? 60_000;
    const all = await store.activity({
      bucketMs,
      ...(q.since !== undefined ? { since: q.since } : {}),
    });
    const buckets = all.slice(-SERIES_MAX_BUCKETS).map((b) => ({
      ...b,
      harvestRate: b.kept + b.discarded > 0 ? b.kept / (b.kept + b.discarded) : null,
    }));
    const t = readThresholdHistory(await store.getMeta(META_THRESHOLD));
    return {
      bucketMs,
      buckets,
      truncated: all.length > buckets.length,
      threshold:
        t === null
          ? null
          : {
              kind: t.kind,
              initial: t.initial,
              value: t.value,
              frozen: t.frozen,
              changes:
                q.since === undefined
                  ? t.changes
                  : t.changes.filter((c) => c.at >= (q.since as number)),
            },
    };
  });

  app.get('/api/export/:format', async (req, reply) => {
    const { format } = parseQuery({ format: enumParam(EXPORT_FORMATS) }, req.params);
    const q = parseQuery(
      {
        what: enumParam(EXPORT_WHATS).optional(),
        state: enumParam(URL_STATES as unknown as [string, ...string[]]).optional(),
        text: boolParam().optional(),
        bom: boolParam().optional(),
        dialect: enumParam(['sqlite', 'postgres']).optional(),
      },
      req.query,
    );
    const input = {
      what: q.what ?? 'pages',
      format,
      ...(q.state !== undefined ? { state: q.state } : {}),
      ...(q.text !== undefined ? { text: q.text } : {}),
      ...(q.bom !== undefined ? { bom: q.bom } : {}),
      ...(q.dialect !== undefined ? { dialect: q.dialect } : {}),
      ...(storeName !== undefined ? { source: storeName } : {}),
    };
    // Checked before the first byte: a stream cannot turn into a 400 later.
    const checked = exportOptionsSchema.safeParse(input);
    if (!checked.success) throw invalidInput(checked.error, input);
    const chunks = exportChunks(store, input as z.input<typeof exportOptionsSchema>);
    const stream = Readable.from(
      (async function* () {
        for await (const c of chunks) yield typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
      })(),
    );
    return reply
      .type(CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="${input.what}.${EXTENSIONS[format]}"`)
      .header('content-security-policy', 'sandbox')
      .header('x-content-type-options', 'nosniff')
      .send(stream);
  });
}
