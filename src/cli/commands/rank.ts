import {
  KEPT_RANK_SETTINGS,
  keepRankSettings,
  type RankSettings,
} from '../../crawl/rank-settings.js';
import { CliUsageError, isFocusCrawlError } from '../../errors/index.js';
import {
  RANK_ALGORITHMS,
  type RankAlgorithm,
  type RankedPage,
  type RankingSummary,
  type RankStoreOptions,
  rankStore,
  rankStoreSettings,
  topPagesByScore,
} from '../../ranking/index.js';
import { connectStore } from '../../store/index.js';
import { formatCount, formatDuration } from '../../util/index.js';
import { bool, type FlagSpec, int, type Parsed, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';

const HELP = `Usage: focuscrawl rank --store DIR [options]

Ranks the pages of a crawl store (DESIGN 1.1): a link score over every recorded
link (PageRank, or the HITS authority score), divided by the largest one so that
it lies in [0, 1] as R, and the final score P = w1·relevance + w2·R. Stores R for
every fetched page and P for every kept one (discarded pages get none), records
the run under the meta key "ranking", then prints a summary and the top pages by
P. Pages fetched while it runs are scored by the next rank.

--algorithm, --damping, --w1 and --w2 are kept in the store until changed: a later
rank without them uses them, and so does the ranking a crawl computes when a run
ends. Defaults below are those of a store that keeps none.

  --store DIR            the crawl store
  --algorithm NAME       pagerank or hits (default pagerank)
  --damping D            PageRank's d, in (0, 1) (default 0.8)
  --tolerance T          stop iterating once the mean change per page is below T
                         (default 1e-6)
  --max-iterations N     at most N sweeps (default 100)
  --w1 W                 weight of the relevance in P (default 0.6)
  --w2 W                 weight of R in P (default 0.4)
  --top N                pages listed (default 10; 0 for none)
  --json                 print the summary and the top pages as one JSON object`;

const flags: FlagSpec = {
  store: { type: 'string' },
  algorithm: { type: 'string' },
  damping: { type: 'string' },
  tolerance: { type: 'string' },
  'max-iterations': { type: 'string' },
  w1: { type: 'string' },
  w2: { type: 'string' },
  top: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

function num(p: Parsed, name: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) {
    throw new CliUsageError(`focuscrawl rank: --${name} must be a number, got "${v}"`);
  }
  return n;
}

/** The ranking options the flags give, each checked on its own so that errors name the flag. */
function optionsFromFlags(p: Parsed): RankStoreOptions {
  const options: RankStoreOptions = {};
  const algorithm = str(p, 'algorithm');
  if (algorithm !== undefined) {
    if (!(RANK_ALGORITHMS as readonly string[]).includes(algorithm)) {
      throw new CliUsageError(
        `focuscrawl rank: --algorithm must be one of ${RANK_ALGORITHMS.join(', ')}, got "${algorithm}"`,
      );
    }
    options.algorithm = algorithm as RankAlgorithm;
  }
  const given: [keyof RankStoreOptions, string, number | undefined][] = [
    ['damping', 'damping', num(p, 'damping')],
    ['tolerance', 'tolerance', num(p, 'tolerance')],
    ['maxIterations', 'max-iterations', int(p, 'max-iterations', 'rank')],
    ['w1', 'w1', num(p, 'w1')],
    ['w2', 'w2', num(p, 'w2')],
  ];
  for (const [key, flag, value] of given) {
    if (value === undefined) continue;
    try {
      rankStoreSettings({ [key]: value });
    } catch (e) {
      if (!isFocusCrawlError(e)) throw e;
      const why = e.message.replace(/^rankStore: \w+ /, '');
      throw new CliUsageError(`focuscrawl rank: --${flag} ${why}`, { cause: e });
    }
    Object.assign(options, { [key]: value });
  }
  return options;
}

/** A number with four decimals, or `–` for none. */
const fixed = (x: number | null) => (x === null ? '–' : x.toFixed(4));

/** A title on one line, at most 60 characters. */
function oneLine(title: string | null): string {
  const t = (title ?? '').replace(/\s+/g, ' ').trim();
  return t.length > 60 ? `${t.slice(0, 59)}…` : t;
}

/** The flags of the kept settings. */
const KEPT_FLAG: Record<(typeof KEPT_RANK_SETTINGS)[number], string> = {
  algorithm: 'algorithm',
  damping: 'damping',
  w1: 'w1',
  w2: 'w2',
};

/** `--w1 0.8 --w2 0.2, kept in the store: ...`, or that the defaults are in force. */
export function keptText(kept: RankSettings): string {
  const given = KEPT_RANK_SETTINGS.filter((k) => kept[k] !== undefined).map(
    (k) => `--${KEPT_FLAG[k]} ${kept[k]}`,
  );
  if (given.length === 0) {
    return 'none (defaults); --algorithm, --damping, --w1 and --w2 given to rank are kept';
  }
  return `${given.join(' ')} (kept in the store: later ranks and the crawl's ranking at the end of a run use them until changed)`;
}

/** The summary and the table of `focuscrawl rank`. */
function formatRanking(
  dir: string,
  s: RankingSummary,
  top: RankedPage[],
  kept: RankSettings,
): string {
  const lines: string[] = [];
  const row = (k: string, v: string) => lines.push(`${k.padEnd(15)} ${v}`);
  row('Store', dir);
  row('Algorithm', s.algorithm === 'pagerank' ? `pagerank (d = ${s.damping})` : 'hits');
  row('Kept settings', keptText(kept));
  row('Graph', `${formatCount(s.nodes)} nodes, ${formatCount(s.edges)} edges`);
  row(
    'Iterations',
    `${formatCount(s.iterations)} (${s.converged ? 'converged' : 'not converged: raise --max-iterations or --tolerance'})`,
  );
  row('Pages scored', formatCount(s.pages));
  row('Final score', `P = ${s.w1}·relevance + ${s.w2}·R`);
  row('Time', formatDuration(s.ms));
  if (top.length > 0) {
    lines.push('', `Top ${top.length} ${top.length === 1 ? 'page' : 'pages'} by P`);
    const urlWidth = top.reduce((w, t) => Math.max(w, t.url.length), 3);
    const line = (c: string[], url: string, title: string) =>
      `  ${c[0]!.padStart(6)}  ${c[1]!.padStart(9)}  ${c[2]!.padStart(6)}  ${url.padEnd(urlWidth)}  ${title}`.trimEnd();
    // R is the PageRank, or under HITS the authority score, divided by the largest.
    lines.push(line(['P', 'relevance', s.algorithm === 'hits' ? 'auth' : 'PR'], 'URL', 'title'));
    for (const t of top) {
      const cells = [fixed(t.score), fixed(t.relevance), fixed(t.pageRank)];
      lines.push(line(cells, t.url, oneLine(t.title)));
    }
  }
  return lines.join('\n');
}

export async function rankCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('rank', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (p.positionals.length > 0) {
    throw new CliUsageError(
      `focuscrawl rank: unexpected argument "${p.positionals[0]}" (give the store with --store DIR)`,
    );
  }
  const dir = str(p, 'store');
  if (dir === undefined) {
    throw new CliUsageError('focuscrawl rank: --store is required (see focuscrawl rank --help)');
  }
  const options = optionsFromFlags(p);
  const topN = int(p, 'top', 'rank') ?? 10;
  const store = await connectStore(dir);
  try {
    // The settings given are kept; those not given come from the store's, else defaults.
    const kept = await keepRankSettings(store, options);
    const summary = await rankStore(store, { ...options, ...kept });
    const top = await topPagesByScore(store, topN);
    if (bool(p, 'json')) io.out(JSON.stringify({ store: dir, ...summary, kept, top }, null, 2));
    else io.out(formatRanking(dir, summary, top, kept));
    return 0;
  } finally {
    await store.close();
  }
}
