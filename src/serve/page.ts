/**
 * One URL of the store for `/api/page`: its row (as `listPages` lists it), the
 * explanation of its relevance, its links in and out, extracted fields, fetch history
 * and revisits; and its stored body for `/api/page/body`.
 *
 * The explanation reads the stored body's visible text as the crawl did (`analyzeBody`)
 * and counts the topic's keywords in it (the keyword model, DESIGN 1.1: f_i counted
 * in text and title; the relevance is the cosine of weights and counts).
 */
import { NotFoundError } from '../errors/index.js';
import { readThresholdHistory } from '../export/index.js';
import { analyzeBody } from '../parse/index.js';
import { createKeywordModel, META_THRESHOLD } from '../relevance/index.js';
import type {
  FieldRecord,
  HistoryRecord,
  LinkRow,
  PageRow,
  Store,
  UrlState,
  VisitRecord,
} from '../store/index.js';

/** Links listed each way. */
export const PAGE_LINKS = 100;

/** Why a page has its relevance: the topic's keywords counted in its stored text. */
export interface RelevanceExplanation {
  /** The relevance the crawl stored for the page; null before it was fetched. */
  stored: number | null;
  /** The threshold in force now (the crawl's latest); null when none is recorded. */
  threshold: number | null;
  /** The keyword model's relevance of the stored text with the keywords in force now. */
  recomputed: number | null;
  /** Each keyword of the topic now: its weight and its count f_i on the page (null without text). */
  keywords: { word: string; weight: number; count: number | null }[];
  /** Characters of visible text read; null when no body is stored or it is not text. */
  textChars: number | null;
  /** What to know when the explanation is partial. */
  note: string | null;
}

export interface PageDetails {
  url: string;
  /** The URL's row (`store.pageRow`); null when the store does not know the URL. */
  record: PageRow | null;
  state: UrlState | null;
  relevance: RelevanceExplanation;
  links: { in: LinkRow[]; out: LinkRow[] };
  fields: FieldRecord[];
  history: HistoryRecord[];
  visits: Omit<VisitRecord, 'bodyFile'>[];
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The visible text and title of a stored body, as the crawl read them. */
export function bodyText(
  body: Buffer,
  url: string,
): { text: string; title: string; content: string; charset: string | undefined } | null {
  const a = analyzeBody(body, undefined, url, { maxLinks: 0 });
  const text = a.page?.text ?? a.text;
  if (text === undefined) return null;
  return { text, title: a.page?.title ?? '', content: a.content, charset: a.charset };
}

async function explain(
  store: Store,
  url: string,
  stored: number | null,
): Promise<RelevanceExplanation> {
  const keywords = [...(await store.getKeywords())].map(([word, weight]) => ({ word, weight }));
  const threshold = readThresholdHistory(await store.getMeta(META_THRESHOLD))?.value ?? null;
  const body = await store.readBody(url);
  const read = body === null ? null : bodyText(body, url);
  if (read === null) {
    return {
      stored,
      threshold,
      recomputed: null,
      keywords: keywords.map((k) => ({ ...k, count: null })),
      textChars: null,
      note:
        body === null
          ? 'no body is stored for this URL (see --store-bodies): the counts cannot be shown'
          : 'the stored body is not text: the counts cannot be shown',
    };
  }
  const score = keywords.length > 0 ? createKeywordModel({ keywords }).score(read) : null;
  return {
    stored,
    threshold,
    recomputed: score?.relevance ?? null,
    keywords: keywords.map((k, i) => ({ ...k, count: score?.keywords[i]?.count ?? 0 })),
    textChars: read.text.length,
    note:
      keywords.length === 0
        ? 'the store records no topic keywords'
        : 'counted with the keywords in force now; the crawl may have scored the page with other weights (an adapted topic) or another model (tfidf, bayes)',
  };
}

/** Everything about `url` (canonical); NotFoundError when the store does not know it. */
export async function pageDetails(store: Store, url: string): Promise<PageDetails> {
  const history = await store.urlHistory(url);
  const record = await store.pageRow(url);
  if (record === null && history.length === 0) {
    throw new NotFoundError(`no URL ${url} in the store`, { url });
  }
  const [linksIn, linksOut, fields, visits] = await Promise.all([
    store.pageLinks(url, { direction: 'in', limit: PAGE_LINKS }),
    store.pageLinks(url, { direction: 'out', limit: PAGE_LINKS }),
    all(store.fields({ url })),
    all(store.visits(url)),
  ]);
  const stored = record?.relevance ?? history.at(-1)?.relevance ?? null;
  return {
    url,
    record,
    state: record?.state ?? history.at(-1)?.state ?? null,
    relevance: await explain(store, url, stored),
    links: { in: linksIn, out: linksOut },
    fields,
    history,
    visits: visits.map(({ bodyFile: _b, ...v }) => v),
  };
}

/** The stored body of `url` and the type to serve it with; NotFoundError without one. */
export async function pageBody(
  store: Store,
  url: string,
): Promise<{ body: Buffer; contentType: string }> {
  const body = await store.readBody(url);
  if (body === null) throw new NotFoundError(`no stored body for ${url}`, { url });
  const a = analyzeBody(body, undefined, url, { maxLinks: 0 });
  const charset = a.charset === undefined ? '' : `; charset=${a.charset}`;
  const contentType =
    a.content === 'html'
      ? `text/html${charset}`
      : a.content === 'xml'
        ? `application/xml${charset}`
        : a.content === 'text'
          ? `text/plain${charset}`
          : 'application/octet-stream';
  return { body, contentType };
}
