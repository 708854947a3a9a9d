import { CliUsageError } from '../../errors/index.js';
import { MARK_END, MARK_START } from '../../search/index.js';
import { openStore, type Store, type TextHit } from '../../store/index.js';
import { bool, type FlagSpec, int, type Parsed, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';

const HELP = `Usage: focuscrawl search --store DIR [options] QUERY...

Searches the titles and texts of a crawl store's kept pages. A page matches when
it contains every word of the query (English words stemmed, case and accents
ignored; a run of Chinese or Japanese is matched as written, as a phrase). Hits
come best first by (1 − w)·BM25/best BM25 + w·P, where P is the page's score
after \`focuscrawl rank\` and its relevance before. Each hit shows its rank, title,
URL, P, relevance, PageRank and BM25, and a snippet of its text with the matched
words highlighted. Reads the store only, so it can run while a crawl works on it.
The words after the flags make up the query; put a word that begins with - after --.

  --store DIR          the crawl store
  --limit N            hits shown, 1 … 1000 (default 10)
  --score-weight W     weight w of P in the order, in [0, 1] (default 0.3; 0 for
                       BM25 alone)
  --color WHEN         highlight matched words in bold inverse: auto (when standard
                       output is a terminal and NO_COLOR is not set), always or never;
                       without colour they are shown [like this] (default auto)
  --json               print { query, hits } as one JSON object: each hit's url, title,
                       relevance, pageRank, score, bm25, rank, snippet (plain text) and
                       highlights ([start, end) UTF-16 offsets into the snippet)

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

const fixed = (x: number | null) => (x === null ? '-' : x.toFixed(4));
/** BM25 with four decimals, or three significant digits when that would show 0.0000. */
const bm25Text = (x: number) => (x === 0 || x >= 0.00005 ? x.toFixed(4) : x.toExponential(2));

/** One block per hit: rank number, title, URL, the figures, the snippet. */
export function formatHits(query: string, hits: readonly TextHit[], color: boolean): string {
  if (hits.length === 0) return `No kept page contains every word of ${JSON.stringify(query)}.`;
  const width = String(hits.length).length;
  const indent = ' '.repeat(width + 2);
  return hits
    .map((h, i) => {
      const title = clean(h.title ?? '')
        .replace(/\s+/g, ' ')
        .trim();
      const figures = [
        `P ${fixed(h.score)}`,
        `relevance ${fixed(h.relevance)}`,
        `PageRank ${fixed(h.pageRank)}`,
        `BM25 ${bm25Text(h.bm25)}`,
      ].join('  ');
      const snippet = color
        ? highlight(plainSnippet(h.snippet), HIGHLIGHT_ON, HIGHLIGHT_OFF)
        : highlight(plainSnippet(h.snippet), '[', ']');
      const lines = [
        `${String(i + 1).padStart(width)}. ${title === '' ? '(no title)' : title}`,
        `${indent}${clean(h.url)}`,
        `${indent}${figures}`,
      ];
      if (snippet.trim() !== '') lines.push(`${indent}${snippet}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

/** The hits as `--json` prints them. */
export function hitsJson(query: string, hits: readonly TextHit[]) {
  return {
    query,
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

function scoreWeightOf(p: Parsed): number {
  const v = str(p, 'score-weight');
  if (v === undefined) return 0.3;
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
  const store = await openStore(dir, { readonly: true });
  try {
    const hits = await store.search({ query, limit, scoreWeight });
    if (hits.length === 0 && !(await indexedText(store))) {
      throw new CliUsageError(
        `focuscrawl search: no crawl of ${dir} indexed its pages' text: crawl with --full-text kept`,
      );
    }
    if (json) io.out(JSON.stringify(hitsJson(query, hits), null, 2));
    else io.out(formatHits(query, hits, color));
    return 0;
  } finally {
    await store.close();
  }
}

/** Whether a run of the crawl indexed text (runs recorded before the option count as not). */
async function indexedText(store: Store): Promise<boolean> {
  const runs = await store.getMeta<{ fullText?: string }[]>('runs');
  return Array.isArray(runs) && runs.some((r) => r?.fullText === 'kept');
}
