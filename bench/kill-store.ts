// What the SIGKILL bench (bench/kill.ts) reads of a store and checks in it: a full
// read-only snapshot (URLs, fetch history, links, pages, search coverage, revisits and
// visits), the invariants a store keeps at any moment (even right after a kill), what
// must never be lost between two snapshots, and the comparison of a killed crawl's
// final store with one never killed. Every check returns the discrepancies it found
// as sentences (an empty list: none), so that the bench reports them and a test
// asserts there are none.
import { type StateCounts, URL_STATES, type UrlState } from '../src/store/index.js';
import { duplicateOf, pageFacts, pageLinksOf, type TestWeb } from '../src/testweb/index.js';
import { openIfSetUp } from '../test/crawl/resume-helpers.js';

const FINAL: ReadonlySet<UrlState> = new Set(['complete', 'discard', 'error', 'redirect']);
export const isFinal = (s: UrlState | undefined): boolean => s !== undefined && FINAL.has(s);

export interface VisitRow {
  url: string;
  at: number;
  change: string;
}

export interface RevisitRow {
  visits: number;
  changes: number;
  lastVisitAt: number;
  claimed: boolean;
}

/** What a store holds, read through a read-only connection. */
export interface StoreSnapshot {
  /** URL → state, one entry per `urls` row (`rows` counts the rows). */
  states: Map<string, UrlState>;
  rows: number;
  /** Where the URLs in state redirect lead. */
  redirectTargets: Set<string>;
  /** Fetch outcomes in the order recorded. */
  history: { url: string; state: string; attempt: number; putBack: boolean }[];
  counts: StateCounts;
  /** Links recorded, by the page they were found on. */
  linksFrom: Map<string, number>;
  links: number;
  /** Pages with a final score P (ranked). */
  ranked: number;
  /** Pages held by the full-text index. */
  indexed: number;
  revisits: Map<string, RevisitRow>;
  visits: VisitRow[];
}

/** Reads the store at `dir`, or null when no store was set up there yet (a crawl killed while starting). */
export async function readSnapshot(dir: string): Promise<StoreSnapshot | null> {
  const store = await openIfSetUp(dir);
  if (store === null) return null;
  try {
    const states = new Map<string, UrlState>();
    let rows = 0;
    const redirectTargets = new Set<string>();
    for await (const u of store.urls()) {
      rows++;
      states.set(u.url, u.state);
      if (u.redirectTo !== null) redirectTargets.add(u.redirectTo);
    }
    const history: StoreSnapshot['history'] = [];
    for await (const h of store.history()) {
      history.push({ url: h.url, state: h.state, attempt: h.attempt, putBack: h.retryAt !== null });
    }
    const linksFrom = new Map<string, number>();
    let links = 0;
    for await (const l of store.links()) {
      links++;
      linksFrom.set(l.from, (linksFrom.get(l.from) ?? 0) + 1);
    }
    let ranked = 0;
    for await (const p of store.pages()) if (p.score !== null) ranked++;
    const indexed = (await store.textCoverage()).indexed;
    const revisits = new Map<string, RevisitRow>();
    for await (const r of store.revisits()) {
      revisits.set(r.url, {
        visits: r.visits,
        changes: r.changes,
        lastVisitAt: r.lastVisitAt,
        claimed: r.claimed,
      });
    }
    const visits: VisitRow[] = [];
    for await (const v of store.visits()) visits.push({ url: v.url, at: v.at, change: v.change });
    return {
      states,
      rows,
      redirectTargets,
      history,
      counts: await store.counts(),
      linksFrom,
      links,
      ranked,
      indexed,
      revisits,
      visits,
    };
  } finally {
    await store.close();
  }
}

/**
 * The store's invariants at any moment, even right after a kill: one row per URL, one
 * final history row per URL in a final state (in that state) and none for the others,
 * attempts numbered once each, the counters equal to the rows, links only from fetched
 * pages, and every revisit record equal to its visit history (visits and changes
 * counted, last visit time) with no visit recorded twice.
 */
export function invariants(s: StoreSnapshot): string[] {
  const out: string[] = [];
  if (s.rows !== s.states.size) out.push(`${s.rows - s.states.size} URLs have more than one row`);
  const finalRow = new Map<string, string>();
  const attempts = new Set<string>();
  for (const h of s.history) {
    const key = `${h.attempt} ${h.url}`;
    if (attempts.has(key)) out.push(`${h.url}: attempt ${h.attempt} recorded twice`);
    attempts.add(key);
    if (h.putBack) continue; // a failed attempt put back to waiting
    if (finalRow.has(h.url)) out.push(`${h.url}: completed twice in the history`);
    finalRow.set(h.url, h.state);
  }
  const tally = Object.fromEntries(URL_STATES.map((k) => [k, 0])) as StateCounts;
  for (const [url, state] of s.states) {
    tally[state]++;
    const row = finalRow.get(url);
    if (isFinal(state) && row !== state) {
      out.push(`${url} is ${state}, its history says ${row ?? 'nothing'}`);
    }
    if (!isFinal(state) && row !== undefined)
      out.push(`${url} is ${state} with a final history row`);
  }
  for (const url of finalRow.keys()) {
    if (!s.states.has(url)) out.push(`${url} is in the history, not in the URLs`);
  }
  for (const k of Object.keys(tally) as UrlState[]) {
    if (tally[k] !== s.counts[k]) out.push(`counter ${k} ${s.counts[k]}, rows ${tally[k]}`);
  }
  for (const from of s.linksFrom.keys()) {
    if (!isFinal(s.states.get(from))) out.push(`links recorded from ${from}, not fetched`);
  }
  out.push(...visitInvariants(s));
  return out;
}

function visitInvariants(s: StoreSnapshot): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const per = new Map<string, { visits: number; changes: number; last: number }>();
  for (const v of s.visits) {
    const key = `${v.at} ${v.url}`;
    if (seen.has(key)) out.push(`visit of ${v.url} at ${v.at} recorded twice`);
    seen.add(key);
    if (v.change === 'failed') continue;
    const p = per.get(v.url) ?? { visits: 0, changes: 0, last: 0 };
    p.visits++;
    if (v.change === 'changed') p.changes++;
    p.last = Math.max(p.last, v.at);
    per.set(v.url, p);
  }
  for (const [url, r] of s.revisits) {
    const p = per.get(url) ?? { visits: 0, changes: 0, last: 0 };
    if (r.visits !== p.visits || r.changes !== p.changes) {
      out.push(
        `${url}: its record counts ${r.visits} visits, ${r.changes} changes; its history ${p.visits}, ${p.changes}`,
      );
    }
    if (p.visits > 0 && r.lastVisitAt !== p.last) {
      out.push(`${url}: last visit ${r.lastVisitAt}, its history's last ${p.last}`);
    }
  }
  for (const url of per.keys()) {
    if (!s.revisits.has(url)) out.push(`${url}: visits without a revisit record`);
  }
  return out;
}

/** Everything `before` held is still in `after`: URLs, final states, history rows, visits. */
export function nothingLost(before: StoreSnapshot, after: StoreSnapshot): string[] {
  const out: string[] = [];
  for (const [url, state] of before.states) {
    const now = after.states.get(url);
    if (now === undefined) out.push(`${url} was lost`);
    else if (isFinal(state) && now !== state)
      out.push(`${url}: final state ${state} became ${now}`);
  }
  if (after.history.length < before.history.length) {
    out.push(`history rows went from ${before.history.length} to ${after.history.length}`);
  }
  const visits = new Set(after.visits.map((v) => `${v.at} ${v.url} ${v.change}`));
  let lostVisits = 0;
  for (const v of before.visits) if (!visits.has(`${v.at} ${v.url} ${v.change}`)) lostVisits++;
  if (lostVisits > 0) out.push(`${lostVisits} recorded visits were lost`);
  for (const [url, r] of before.revisits) {
    const now = after.revisits.get(url);
    if (now === undefined) out.push(`${url}: its revisit record was lost`);
    else if (now.visits < r.visits || now.changes < r.changes)
      out.push(`${url}: visit counts went back`);
  }
  return out;
}

/** A page request as the test web logged it, as a URL (no port). */
export const requestUrl = (r: { host: string; path: string }): string =>
  `http://${r.host}${r.path}`;

/**
 * No page completed twice, from the test web's request log of one run (`requests`)
 * and the store as that run found it (`atStart`, null for a new store): a page the
 * store held in a final state is not requested again, and no page is requested twice
 * within the run (retries aside, which the history records as further attempts).
 * A redirect followed to a page an earlier run finished requests that page again
 * (a run knows only the URLs it claimed or reached itself): such hops are counted
 * apart (`hops`), as long as the history did not record them again (`invariants`).
 * Requests for URLs the final store does not know (robots.txt, sitemaps) are not pages.
 */
export function noneTwice(
  requests: readonly { host: string; path: string }[],
  atStart: StoreSnapshot | null,
  final: StoreSnapshot,
): { problems: string[]; pages: number; hops: string[] } {
  const out: string[] = [];
  const hops: string[] = [];
  const times = new Map<string, number>();
  for (const r of requests) {
    const url = requestUrl(r);
    if (!final.states.has(url)) continue;
    times.set(url, (times.get(url) ?? 0) + 1);
  }
  const retried = new Map<string, number>();
  for (const h of final.history) retried.set(h.url, Math.max(retried.get(h.url) ?? 0, h.attempt));
  const hop = (url: string) =>
    final.states.get(url) === 'redirect' || final.redirectTargets.has(url);
  for (const [url, n] of times) {
    if (isFinal(atStart?.states.get(url))) {
      if (hop(url)) hops.push(url);
      else out.push(`${url} requested again, completed before`);
    }
    if (n > 1 && n > (retried.get(url) ?? 1)) out.push(`${url} requested ${n} times in one run`);
  }
  return { problems: out, pages: times.size, hops };
}

/**
 * The killed crawl's final store against the one never killed. Both exhausted: the same
 * URLs in the same states, one history row each, the same links from each page, as
 * many pages ranked and indexed. A page budget that stopped them: as many pages
 * fetched, and the ground truth's out-links of every kept page known (`outLinksKnown`).
 *
 * The test web's duplicate variants (`variant`: print views, session URLs) are left
 * out: which copy of a page comes first, and so which session ids its links carry and
 * which copy is kept, depends on the order of fetches, killed or not; so are the
 * states (kept or discarded as a duplicate) of the pages that have such copies.
 */
export function compareFinal(
  killed: StoreSnapshot,
  reference: StoreSnapshot,
  exhausted: boolean,
  variant: (url: string) => string | undefined = () => undefined,
): string[] {
  const out: string[] = [];
  if (!exhausted) {
    const fetched = (s: StoreSnapshot) => s.counts.complete + s.counts.discard + s.counts.error;
    if (fetched(killed) !== fetched(reference)) {
      out.push(`pages fetched: ${fetched(killed)} killed, ${fetched(reference)} never killed`);
    }
    return out;
  }
  const copied = new Set<string>();
  const plain = (s: StoreSnapshot) => {
    const m = new Map<string, UrlState>();
    for (const [url, state] of s.states) {
      const of = variant(url);
      if (of === undefined) m.set(url, state);
      else copied.add(of);
    }
    return m;
  };
  const k = plain(killed);
  const r = plain(reference);
  const missing = [...r.keys()].filter((u) => !k.has(u));
  const extra = [...k.keys()].filter((u) => !r.has(u));
  if (missing.length > 0) out.push(`${missing.length} URLs missing, e.g. ${missing.slice(0, 3)}`);
  if (extra.length > 0) out.push(`${extra.length} URLs extra, e.g. ${extra.slice(0, 3)}`);
  const differ: string[] = [];
  for (const [url, state] of r) {
    const now = k.get(url);
    if (now === undefined || now === state) continue;
    const keptOrCopy = (x: UrlState) => x === 'complete' || x === 'discard';
    if (copied.has(url) && keptOrCopy(now) && keptOrCopy(state)) continue;
    differ.push(`${url} ${now} (never killed: ${state})`);
  }
  if (differ.length > 0)
    out.push(`${differ.length} URLs in another state, e.g. ${differ.slice(0, 3)}`);
  const tally = (m: Map<string, UrlState>) => {
    const t = new Map<UrlState, number>();
    for (const state of m.values()) t.set(state, (t.get(state) ?? 0) + 1);
    return t;
  };
  const tk = tally(k);
  const tr = tally(r);
  for (const state of ['waiting', 'processing', 'error', 'redirect'] as const) {
    if ((tk.get(state) ?? 0) !== (tr.get(state) ?? 0)) {
      out.push(`${state}: ${tk.get(state) ?? 0} killed, ${tr.get(state) ?? 0} never killed`);
    }
  }
  let linksDiffer = 0;
  for (const [from, n] of reference.linksFrom) {
    // A page kept in one and discarded as a copy in the other records other links.
    if (variant(from) !== undefined || copied.has(from)) continue;
    if (killed.linksFrom.get(from) !== n) linksDiffer++;
  }
  if (linksDiffer > 0) out.push(`links: ${linksDiffer} pages have other links than never killed`);
  if (killed.ranked !== reference.ranked)
    out.push(`ranked pages: ${killed.ranked} killed, ${reference.ranked}`);
  if (killed.indexed !== reference.indexed)
    out.push(`indexed pages: ${killed.indexed} killed, ${reference.indexed}`);
  return out;
}

/**
 * Ground truth: every kept topical page's out-links (the test web's own list of them)
 * that `inScope` admits are known to the store, so a kill lost no discovered URL
 * whatever order a page budget took them in.
 */
export function outLinksKnown(
  s: StoreSnapshot,
  web: Pick<TestWeb, 'seed' | 'size'>,
  inScope: (url: string) => boolean,
): { problems: string[]; pages: number } {
  const id = { seed: web.seed, size: web.size };
  const missing: string[] = [];
  let pages = 0;
  for (const [url, state] of s.states) {
    if (state !== 'complete' || pageFacts(id, url) === undefined) continue;
    pages++;
    for (const to of pageLinksOf(id, url)) {
      if (inScope(to) && !s.states.has(to)) missing.push(`${to} (linked from ${url})`);
    }
  }
  const problems =
    missing.length === 0
      ? []
      : [`${missing.length} out-links of kept pages unknown, e.g. ${missing.slice(0, 3)}`];
  return { problems, pages };
}

/** The canonical page a URL of the test web is a print view or session copy of, else undefined. */
export function variantOf(
  web: Pick<TestWeb, 'seed' | 'size'>,
): (url: string) => string | undefined {
  const id = { seed: web.seed, size: web.size };
  return (url) => duplicateOf(id, url);
}
