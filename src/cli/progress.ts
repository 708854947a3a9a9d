// The crawl command's progress display: a status bar redrawn in place on a terminal
// (with a legend of its abbreviations once), a compact log line every few seconds
// otherwise, JSON lines for machines; filtered by the log level.
import { z } from 'zod';
import type { CrawlProgress, CrawlSummary, PageEvent } from '../crawl/index.js';
import { InvalidOptionError } from '../errors/index.js';
import { URL_STATES } from '../store/types.js';

export const PROGRESS_MODES = ['bar', 'lines', 'json', 'quiet'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

/** Log levels, least first: each shows what the ones before it show, and more. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Whether `level` shows messages of level `of`. */
export const shows = (level: LogLevel, of: LogLevel) =>
  LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(of);

/** Off a terminal, a progress line at most this often by default. */
export const DEFAULT_LINE_EVERY_MS = 10_000;

/** The rate an ETA is estimated from: pages fetched over this last stretch of the run. */
export const RATE_WINDOW_MS = 60_000;

/** The limits of a run that the progress shows its share of. */
export interface ProgressBudget {
  /** Pages fetched over all runs at which the crawl stops (`--max-pages`). */
  maxPages?: number | undefined;
  /** How long this run lasts (`--duration`). */
  durationMs?: number | undefined;
}

const fn = <T>() => z.custom<T>((v) => typeof v === 'function', 'expected a function');

const optionsSchema = z.strictObject({
  /**
   * `bar`: one status line redrawn in place (a terminal); `lines`: a compact log line
   * every `lineEveryMs`; `json`: a JSON object per line per event; `quiet`: warnings only.
   */
  mode: z.enum(PROGRESS_MODES),
  /** Receives the output; nothing is added to it (line ends included). */
  write: fn<(s: string) => void>(),
  /**
   * Terminal width the bar must fit in; a function is asked at every redraw, so a
   * resized terminal is followed.
   * @default 80
   */
  columns: z.union([z.number().int().min(1), fn<() => number | undefined>()]).optional(),
  /** The clock of timestamps (lines and json modes). @default () => new Date() */
  now: fn<() => Date>().optional(),
  /**
   * What is shown (not in json mode, which shows every event): `error` nothing,
   * `warn` warnings, `info` the progress too, `debug` a line per page too.
   * @default 'info'
   */
  level: z.enum(LOG_LEVELS).optional(),
  /** The run's limits, shown as a percentage with an ETA. @default none */
  budget: z
    .strictObject({
      maxPages: z.number().int().min(1).optional(),
      durationMs: z.number().min(1).optional(),
    })
    .optional(),
  /** Lines mode: a progress line at most this often (by the run's elapsed time). @default 10000 */
  lineEveryMs: z.number().min(0).optional(),
  /** Bar mode: a line explaining the bar's abbreviations before the first bar. @default true */
  legend: z.boolean().optional(),
  /** Lines mode: a last line when the run ends (its stop reason and message). @default false */
  endLine: z.boolean().optional(),
});

export type ProgressReporterOptions = z.input<typeof optionsSchema>;

export interface ProgressReporter {
  progress(p: CrawlProgress): void;
  page(e: PageEvent): void;
  warning(message: string): void;
  end(summary: CrawlSummary): void;
}

/** ANSI: back to the start of the line and clear it. */
export const CLEAR_LINE = '\r\x1b[2K';

/** What the bar's abbreviations mean. */
const LEGEND_TEXT =
  'p/s pages per second; w waiting, p processing, c complete (kept), d discarded, e error; h harvest rate (kept / judged); f frontier (URLs waiting); i requests in flight; N% of the budget (--max-pages, else --duration) with the ETA';

/** The legend line printed once before the first bar. */
export const LEGEND = `legend: ${LEGEND_TEXT}`;

/** The legend wrapped at `width` characters after `indent` (for `crawl --help`). */
export function legendLines(width: number, indent = '  '): string {
  const lines: string[] = [];
  let line = '';
  for (const word of LEGEND_TEXT.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines.join('\n');
}

/** `3723000` → `1:02:03`. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (x: number) => String(x).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

const group = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const rate = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** How far a run is through its budget. */
export interface BudgetFigures {
  /** What the share is of: fetched pages (`--max-pages`) or this run's time (`--duration`). */
  of: 'pages' | 'time';
  /** Done, from 0 to 1. */
  share: number;
  /** Milliseconds left at the recent rate (the sooner limit when both are set); null when unknown. */
  etaMs: number | null;
  /** The budget itself: pages, or milliseconds. */
  total: number;
}

/**
 * The share of the budget done and the time left: by pages when `--max-pages` is
 * set (at `pagesPerSec`, the recent rate of pages fetched), else by this run's
 * duration; null without a budget.
 */
export function budgetFigures(
  p: CrawlProgress,
  budget: ProgressBudget | undefined,
  pagesPerSec: number | null,
): BudgetFigures | null {
  const maxPages = budget?.maxPages;
  const durationMs = budget?.durationMs;
  const timeLeft = durationMs === undefined ? null : Math.max(0, durationMs - p.elapsedMs);
  if (maxPages !== undefined) {
    const left = Math.max(0, maxPages - p.fetchedTotal);
    const byPages =
      left === 0 ? 0 : pagesPerSec !== null && pagesPerSec > 0 ? (left / pagesPerSec) * 1000 : null;
    const etaMs =
      byPages === null ? timeLeft : timeLeft === null ? byPages : Math.min(byPages, timeLeft);
    return { of: 'pages', share: Math.min(1, p.fetchedTotal / maxPages), etaMs, total: maxPages };
  }
  if (durationMs !== undefined) {
    return {
      of: 'time',
      share: Math.min(1, p.elapsedMs / durationMs),
      etaMs: timeLeft,
      total: durationMs,
    };
  }
  return null;
}

/**
 * Pages per second over the last `windowMs` of a run, from its progress events'
 * (elapsed time, pages fetched over all runs): what an ETA is estimated from.
 */
export class RecentRate {
  readonly #windowMs: number;
  #samples: [elapsedMs: number, pages: number][] = [];

  constructor(windowMs = RATE_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  /** Adds a sample; returns the rate over the window, null until two samples span time. */
  add(elapsedMs: number, pages: number): number | null {
    this.#samples.push([elapsedMs, pages]);
    // Keep the newest sample at or before the window's start as the base.
    while (this.#samples.length > 2 && (this.#samples[1]?.[0] ?? 0) <= elapsedMs - this.#windowMs)
      this.#samples.shift();
    const [t0, n0] = this.#samples[0] as [number, number];
    if (elapsedMs <= t0) return null;
    return ((pages - n0) * 1000) / (elapsedMs - t0);
  }
}

/** `42.0% of 1,000 pages, ETA 0:03:12`; `long: false`: `42% ETA 0:03:12`. */
export function formatBudget(b: BudgetFigures, long = true): string {
  const eta = b.etaMs === null ? '?' : formatElapsed(b.etaMs);
  if (!long) return `${Math.floor(b.share * 100)}% ETA ${eta}`;
  const of =
    b.of === 'pages' ? `${group(b.total)} pages` : `${formatElapsed(b.total)} (--duration)`;
  return `${pct(b.share)} of ${of}, ETA ${eta}`;
}

/** The figures of one progress event on one compact line (no timestamp, no line end). */
export function formatProgressLine(p: CrawlProgress, budget: BudgetFigures | null = null): string {
  const states = URL_STATES.map((s) => `${s} ${group(p.counts[s])}`).join(' ');
  return [
    `${formatElapsed(p.elapsedMs)} fetched ${group(p.fetched)}, ${rate(p.pagesPerSec)} pages/s${budget ? `, ${formatBudget(budget)}` : ''}`,
    states,
    `harvest ${pct(p.harvestRate)}`,
    `in flight ${p.inFlight}`,
  ].join('; ');
}

/**
 * The status bar: the longest of several layouts that fits in `columns - 1`
 * characters (the last column is left free so that no terminal wraps), else the
 * shortest layout cut at a space to fit.
 */
export function formatBar(
  p: CrawlProgress,
  columns: number,
  budget: BudgetFigures | null = null,
): string {
  const c = p.counts;
  const t = formatElapsed(p.elapsedMs);
  const r = rate(p.pagesPerSec);
  const h = pct(p.harvestRate);
  const b = budget ? `  ${formatBudget(budget)}` : '';
  const bs = budget ? ` ${formatBudget(budget, false)}` : '';
  const layouts = [
    `${t}  ${r} pages/s${b}  waiting ${group(c.waiting)}  processing ${group(c.processing)}  complete ${group(c.complete)}  discard ${group(c.discard)}  error ${group(c.error)}  harvest ${h}  frontier ${group(p.frontier)}  in flight ${p.inFlight}`,
    `${t} ${r} p/s${bs}  wait ${group(c.waiting)} proc ${group(c.processing)} ok ${group(c.complete)} disc ${group(c.discard)} err ${group(c.error)}  harvest ${h}  frontier ${group(p.frontier)}  in flight ${p.inFlight}`,
    `${t} ${r}p/s${bs} w${c.waiting} p${c.processing} c${c.complete} d${c.discard} e${c.error} h${h} f${p.frontier} i${p.inFlight}`,
  ];
  const width = Math.max(1, columns - 1);
  for (const l of layouts) if (l.length <= width) return l;
  // Cut at a space, so that no figure is shown cut short.
  const shortest = layouts.at(-1) as string;
  const cut = shortest.lastIndexOf(' ', width);
  return cut > 0 ? shortest.slice(0, cut) : shortest.slice(0, width);
}

/** Control characters (a page may have put them in a warning) would drive the terminal. */
const printable = (s: string) => s.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '?');

/** `2024-05-01T12:00:00Z`: a time as the log lines show it. */
const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A page event on one line (debug level): `complete 200 0.62 http://… (+3 URLs)`. */
export function formatPageLine(e: PageEvent): string {
  const status = e.status === null ? '-' : String(e.status);
  const relevance = e.relevance === null ? '-' : e.relevance.toFixed(2);
  const at = e.finalUrl !== undefined && e.finalUrl !== e.url ? ` → ${e.finalUrl}` : '';
  const again =
    e.attempt === undefined
      ? ''
      : ` (attempt ${e.attempt}${e.retryAt === undefined ? '' : `, again from ${stamp(new Date(e.retryAt))}`})`;
  const tail =
    e.state === 'error'
      ? `: ${e.error ?? ''}${again}`
      : e.newUrls > 0
        ? ` (+${group(e.newUrls)} URLs)`
        : '';
  return printable(`page ${e.state} ${status} ${relevance} ${e.url}${at}${tail}`);
}

/** A last progress figure built from the summary, for the final bar. */
function progressOfSummary(s: CrawlSummary): CrawlProgress {
  return {
    elapsedMs: s.elapsedMs,
    counts: s.counts,
    fetched: s.run.fetched,
    fetchedTotal: s.fetchedTotal,
    pagesPerSec: s.pagesPerSec,
    averagePagesPerSec: s.pagesPerSec,
    harvestRate: s.harvestRate,
    inFlight: 0,
    frontier: s.counts.waiting,
    bytes: s.run.bytes,
  };
}

export function createProgressReporter(input: ProgressReporterOptions): ProgressReporter {
  const r = optionsSchema.safeParse(input);
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${i.path.join('.') || '(options)'}: ${i.message}`);
    throw new InvalidOptionError(`invalid progress options: ${problems.join('; ')}`, {
      cause: r.error,
    });
  }
  const o = r.data;
  const { mode, write, columns, budget, now = () => new Date() } = o;
  const level: LogLevel =
    mode === 'quiet' && shows(o.level ?? 'info', 'warn') ? 'warn' : (o.level ?? 'info');
  const width = () => (typeof columns === 'function' ? columns() : columns) ?? 80;
  const recent = new RecentRate();
  const figures = (p: CrawlProgress) =>
    budget === undefined ? null : budgetFigures(p, budget, recent.add(p.elapsedMs, p.fetchedTotal));

  if (mode === 'json') {
    const emit = (event: string, data: object) =>
      write(`${JSON.stringify({ event, time: now().toISOString(), ...data })}\n`);
    return {
      progress: (p) => emit('progress', p),
      page: (e) => emit('page', e),
      warning: (message) => emit('warning', { message }),
      end: (s) => emit('end', s),
    };
  }

  const warns = shows(level, 'warn');
  const info = shows(level, 'info');
  const debug = shows(level, 'debug');

  if (mode === 'lines' || mode === 'quiet') {
    const every = o.lineEveryMs ?? DEFAULT_LINE_EVERY_MS;
    const line = (s: string) => write(`${stamp(now())} ${s}\n`);
    let last: number | null = null;
    return {
      progress(p) {
        const b = figures(p);
        if (!info || mode === 'quiet') return;
        if (last !== null && p.elapsedMs - last < every) return;
        last = p.elapsedMs;
        line(formatProgressLine(p, b));
      },
      page: (e) => {
        if (debug) line(formatPageLine(e));
      },
      warning: (m) => {
        if (!warns) return;
        if (mode === 'quiet') write(`warning: ${printable(m)}\n`);
        else line(`warning: ${printable(m)}`);
      },
      end: (s) => {
        if (o.endLine && info) line(printable(`end ${s.stopReason}: ${s.message}`));
      },
    };
  }

  // bar
  let bar = '';
  let legend = o.legend ?? true;
  /** A line above the bar, which is drawn again below it. */
  const above = (text: string) => write(bar ? `${CLEAR_LINE}${text}\n${bar}` : `${text}\n`);
  return {
    progress(p) {
      const b = figures(p);
      if (!info) return;
      if (legend) {
        above(LEGEND);
        legend = false;
      }
      bar = formatBar(p, width(), b);
      write(CLEAR_LINE + bar);
    },
    page: (e) => {
      if (debug) above(formatPageLine(e));
    },
    warning(m) {
      if (warns) above(`warning: ${printable(m)}`);
    },
    end(s) {
      // The final figures stay on screen; nothing is drawn if no bar ever was.
      if (bar) {
        const p = progressOfSummary(s);
        write(
          `${CLEAR_LINE}${formatBar(p, width(), budget ? budgetFigures(p, budget, 0) : null)}\n`,
        );
      }
      bar = '';
    },
  };
}
