import { CliUsageError } from '../../errors/index.js';
import { MARK_END, MARK_START } from '../../search/index.js';
import {
  connectStore,
  type Store,
  type TextCoverage,
  type TextHit,
  type TextSearch,
} from '../../store/index.js';
import { bool, type FlagSpec, int, type Parsed, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';

const HELP = `Usage: focuscrawl search --store DIR [options] QUERY...

Searches the titles and texts of a crawl store's kept pages. A page matches when
it contains every word of the query (English words stemmed, case and accents
ignored; a run of Chinese or Japanese is matched as written, as a phrase). Hits
come best first by their score, from 0 to 1: (1 − w)·text match + w·P, where the
text match is the page's BM25 over the best match's (1 for the best match) and P
is the page's final score after \`focuscrawl rank\`, its relevance before; the first
line says so with the weights. Each hit shows its place, title, URL, score, text
match, P, relevance and PageRank, and a snippet of its text with the matched words
highlighted. Reads the store only, so it can run while a crawl works on it.
The words after the flags make up the query; put a word that begins with - after --.

  --store DIR          the crawl store
  --limit N            hits shown, 1 … 1000 (default 10)
  --score-weight W     weight w of P in the order, in [0, 1] (default 0.3; 0 for
                       BM25 alone)
  --color WHEN         highlight matched words in bold inverse: auto (when standard
                       output is a terminal and NO_COLOR is not set), always or never;
                       without colour they are shown [like this] (default auto)
  --json               print { query, scoreWeight, bestBm25, hits } as one JSON object:
                       each hit's url, title, relevance, pageRank, score (P after rank,
                       else null), bm25 (raw), rank (the blended score), position (1 for
                       the first), textMatch (bm25 / bestBm25), p (P as the order used
                       it), snippet (plain text) and highlights ([start, end) UTF-16
                       offsets into the snippet)

See docs/search.md.`;

const flags: FlagSpec = {
  store: { type: 'string' },
  limit: { type: 'string' },
  'score-weight': { type: 'string' },
  color: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const COLOR_MODES = ['auto', 'always', 'never'] as const;
type ColorMode = (typeof COLOR_MODES)[number];

/** An `Io` may tell whether its output is a terminal; without it, standard output's is used. */
interface TerminalIo extends Io {
  isTTY?: boolean;
}

/** Bold and inverse on, then both off (leaving other attributes alone). */
const HIGHLIGHT_ON = '\x1b[1;7m';
const HIGHLIGHT_OFF = '\x1b[22;27m';

/** A snippet as plain text, with the matched words as [start, end) UTF-16 offsets into it. */
export interface PlainSnippet {
  text: string;
  highlights: [number, number][];
}

/**
 * Takes the highlight marks (U+E000 … U+E001) out of a snippet and returns where
 * they were. A mark without its partner (one the page's own text held) is dropped.
 */
export function plainSnippet(snippet: string): PlainSnippet {
  let text = '';
  const highlights: [number, number][] = [];
  let open: number | undefined;
  let from = 0;
  for (let i = 0; i < snippet.length; i++) {
    const c = snippet[i];
    if (c !== MARK_START && c !== MARK_END) continue;
    text += snippet.slice(from, i);
    from = i + 1;
    if (c === MARK_START) open = text.length;
    else if (open !== undefined) {
      if (text.length > open) highlights.push([open, text.length]);
      open = undefined;
    }
  }
  text += snippet.slice(from);
  return { text, highlights };
}

/** Control characters of page text (escape sequences included) shown as spaces. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const clean = (s: string) => s.replace(CONTROLS, ' ');

/** `text` with each highlight between `on` and `off`. */
function highlight(s: PlainSnippet, on: string, off: string): string {
  let out = '';
  let at = 0;
  for (const [start, end] of s.highlights) {
    out += clean(s.text.slice(at, start)) + on + clean(s.text.slice(start, end)) + off;
    at = end;
  }
  return out + clean(s.text.slice(at));
}

/** A hit with the figures a person reads beside the raw ones. */
export interface ReadableHit extends TextHit {
  /** Its place in the list, 1 for the first. */
  position: number;
  /** BM25 over the best match's BM25 (among every page that matches), 0 … 1. */
  textMatch: number;
  /** P as the order used it: the page's final score, its relevance until ranked. */
  p: number;
}

/** The hits with their readable figures; `bestBm25`: the highest BM25 of all the matches. */
export function readableHits(hits: readonly TextHit[], bestBm25: number): ReadableHit[] {
  return hits.map((h, i) => ({
    ...h,
    position: i + 1,
    textMatch: bestBm25 > 0 ? Math.min(1, h.bm25 / bestBm25) : 1,
    p: h.score ?? h.relevance,
  }));
}

/** `0.7` → `0.7`, `0.3333` → `0.33`. */
const weight = (w: number) => String(+w.toFixed(2));

/** The one line that says how the score is made, with the weights. */
export function scoreLine(count: number, scoreWeight: number): string {
  const pages = count === 1 ? '1 page shown' : `${count} pages shown`;
  const formula =
    scoreWeight === 0
      ? 'score = text match'
      : scoreWeight === 1
        ? 'score = P'
        : `score = ${weight(1 - scoreWeight)}·text match + ${weight(scoreWeight)}·P`;
  return `${pages}, best first; ${formula} (text match: 1 for the best match; P: the page's final score, its relevance until focuscrawl rank runs)`;
}

const two = (x: number | null) => (x === null ? '-' : x.toFixed(2));

/** A header line, then one block per hit: place, title, URL, the figures, the snippet. */
export function formatHits(
  query: string,
  hits: readonly ReadableHit[],
  color: boolean,
  scoreWeight = 0.3,
): string {
  if (hits.length === 0) return `No kept page contains every word of ${JSON.stringify(query)}.`;
  const width = String(hits.length).length;
  const indent = ' '.repeat(width + 2);
  const blocks = hits.map((h) => {
    const title = clean(h.title ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    const figures = [
      `score ${two(h.rank)}`,
      `text match ${two(h.textMatch)}`,
      `P ${two(h.p)}`,
      `relevance ${two(h.relevance)}`,
      `PageRank ${two(h.pageRank)}`,
    ].join('  ');
    const snippet = color
      ? highlight(plainSnippet(h.snippet), HIGHLIGHT_ON, HIGHLIGHT_OFF)
      : highlight(plainSnippet(h.snippet), '[', ']');
    const lines = [
      `${String(h.position).padStart(width)}. ${title === '' ? '(no title)' : title}`,
      `${indent}${clean(h.url)}`,
      `${indent}${figures}`,
    ];
    if (snippet.trim() !== '') lines.push(`${indent}${snippet}`);
    return lines.join('\n');
  });
  return [scoreLine(hits.length, scoreWeight), ...blocks].join('\n\n');
}

/** The hits as `--json` prints them: the raw figures and the readable ones. */
export function hitsJson(
  query: string,
  hits: readonly ReadableHit[],
  scoreWeight = 0.3,
  bestBm25: number | null = null,
) {
  return {
    query,
    scoreWeight,
    bestBm25,
    hits: hits.map((h) => {
      const s = plainSnippet(h.snippet);
      return {
        url: h.url,
        title: h.title,
        relevance: h.relevance,
        pageRank: h.pageRank,
        score: h.score,
        bm25: h.bm25,
        rank: h.rank,
        position: h.position,
        textMatch: h.textMatch,
        p: h.p,
        snippet: s.text,
        highlights: s.highlights,
      };
    }),
  };
}

function colorModeOf(p: Parsed): ColorMode {
  const mode = str(p, 'color') ?? 'auto';
  if (!(COLOR_MODES as readonly string[]).includes(mode)) {
    throw new CliUsageError(
      `focuscrawl search: --color must be one of ${COLOR_MODES.join(', ')}, got "${mode}"`,
    );
  }
  return mode as ColorMode;
}

/** Whether to highlight with ANSI attributes: auto follows the terminal and NO_COLOR. */
function useColor(mode: ColorMode, io: Io): boolean {
  if (mode !== 'auto') return mode === 'always';
  const noColor = process.env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  return (io as TerminalIo).isTTY ?? process.stdout.isTTY === true;
}

function limitOf(p: Parsed): number {
  const limit = int(p, 'limit', 'search') ?? 10;
  if (limit < 1 || limit > 1000) {
    throw new CliUsageError(`focuscrawl search: --limit must be 1 … 1000, got ${limit}`);
  }
  return limit;
}

/** The weight of P in the order when none is given (the store's default). */
const DEFAULT_SCORE_WEIGHT = 0.3;

function scoreWeightOf(p: Parsed): number {
  const v = str(p, 'score-weight');
  if (v === undefined) return DEFAULT_SCORE_WEIGHT;
  const w = Number(v);
  if (v.trim() === '' || !(w >= 0 && w <= 1)) {
    throw new CliUsageError(
      `focuscrawl search: --score-weight must be a number in [0, 1], got "${v}"`,
    );
  }
  return w;
}

export async function searchCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('search', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const dir = str(p, 'store');
  if (dir === undefined) {
    throw new CliUsageError(
      'focuscrawl search: --store is required (see focuscrawl search --help)',
    );
  }
  const query = p.positionals.join(' ').trim();
  if (query === '') {
    throw new CliUsageError(
      'focuscrawl search: a query is required: the words to search for, after the flags',
    );
  }
  const limit = limitOf(p);
  const scoreWeight = scoreWeightOf(p);
  const colorMode = colorModeOf(p);
  const json = bool(p, 'json');
  const color = !json && useColor(colorMode, io);
  const store = await connectStore(dir, { readonly: true });
  try {
    const { hits, bestBm25: best } = await readableSearch(store, { query, limit, scoreWeight });
    if (hits.length === 0 && !(await indexedText(store))) {
      throw new CliUsageError(
        `focuscrawl search: no crawl of ${dir} indexed its pages' text: crawl with --full-text kept`,
      );
    }
    if (json) io.out(JSON.stringify(hitsJson(query, hits, scoreWeight, best), null, 2));
    else io.out(formatHits(query, hits, color, scoreWeight));
    const unsearchable = notSearchable(await store.textCoverage());
    if (unsearchable !== undefined) io.err(unsearchable);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * Searches `store` and gives the hits with their readable figures, and the highest
 * BM25 among every page that matches (not only those returned: the first hit of the
 * order by BM25 alone); null without hits.
 */
export async function readableSearch(
  store: Store,
  search: TextSearch,
): Promise<{ hits: ReadableHit[]; bestBm25: number | null }> {
  const hits = await store.search(search);
  if (hits.length === 0) return { hits: [], bestBm25: null };
  const best =
    (search.scoreWeight ?? DEFAULT_SCORE_WEIGHT) === 0
      ? hits[0]?.bm25
      : (await store.search({ query: search.query, limit: 1, scoreWeight: 0 }))[0]?.bm25;
  return { hits: readableHits(hits, best ?? 0), bestBm25: best ?? null };
}

/** The kept pages `search` cannot find (kept while full text was off), said; undefined when none. */
export function notSearchable(c: TextCoverage): string | undefined {
  const missing = c.kept - c.indexed;
  if (missing <= 0) return undefined;
  return `note: ${missing} of ${c.kept} kept pages are not searchable: they were kept while --full-text was off (the next crawl run with --full-text kept indexes those whose bodies were stored)`;
}

/** Whether a run of the crawl indexed text (runs recorded before the option count as not). */
async function indexedText(store: Store): Promise<boolean> {
  const runs = await store.getMeta<{ fullText?: string }[]>('runs');
  return Array.isArray(runs) && runs.some((r) => r?.fullText === 'kept');
}
