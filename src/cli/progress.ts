// The crawl command's progress display: a status bar redrawn in place on a terminal,
// plain log lines otherwise, JSON lines for machines, or nothing but warnings.
import { z } from 'zod';
import type { CrawlProgress, CrawlSummary, PageEvent } from '../crawl/index.js';
import { InvalidOptionError } from '../errors/index.js';
import { URL_STATES } from '../store/types.js';

export const PROGRESS_MODES = ['bar', 'lines', 'json', 'quiet'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

const optionsSchema = z.strictObject({
  /**
   * `bar`: one status line redrawn in place (a terminal); `lines`: a log line per
   * progress event; `json`: a JSON object per line per event; `quiet`: warnings only.
   */
  mode: z.enum(PROGRESS_MODES),
  /** Receives the output; nothing is added to it (line ends included). */
  write: z.custom<(s: string) => void>((v) => typeof v === 'function', 'expected a function'),
  /**
   * Terminal width the bar must fit in; a function is asked at every redraw, so a
   * resized terminal is followed.
   * @default 80
   */
  columns: z
    .union([
      z.number().int().min(1),
      z.custom<() => number | undefined>((v) => typeof v === 'function', 'expected a function'),
    ])
    .optional(),
  /** The clock of timestamps (lines and json modes). @default () => new Date() */
  now: z.custom<() => Date>((v) => typeof v === 'function', 'expected a function').optional(),
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

/** `3723000` → `1:02:03`. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (x: number) => String(x).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

const group = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const rate = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** The figures of one progress event on one line (no timestamp, no line end). */
export function formatProgressLine(p: CrawlProgress): string {
  const states = URL_STATES.map((s) => `${s} ${group(p.counts[s])}`).join(' ');
  return [
    `${rate(p.pagesPerSec)} pages/s`,
    `fetched ${group(p.fetched)}`,
    states,
    `harvest ${pct(p.harvestRate)}`,
    `elapsed ${formatElapsed(p.elapsedMs)}`,
    `frontier ${group(p.frontier)}`,
    `in flight ${p.inFlight}`,
  ].join(' | ');
}

/**
 * The status bar: the longest of several layouts that fits in `columns - 1`
 * characters (the last column is left free so that no terminal wraps), else the
 * shortest layout cut at a space to fit.
 */
export function formatBar(p: CrawlProgress, columns: number): string {
  const c = p.counts;
  const t = formatElapsed(p.elapsedMs);
  const r = rate(p.pagesPerSec);
  const h = pct(p.harvestRate);
  const layouts = [
    `${t}  ${r} pages/s  waiting ${group(c.waiting)}  processing ${group(c.processing)}  complete ${group(c.complete)}  discard ${group(c.discard)}  error ${group(c.error)}  harvest ${h}  frontier ${group(p.frontier)}  in flight ${p.inFlight}`,
    `${t} ${r} p/s  wait ${group(c.waiting)} proc ${group(c.processing)} ok ${group(c.complete)} disc ${group(c.discard)} err ${group(c.error)}  harvest ${h}  frontier ${group(p.frontier)}  in flight ${p.inFlight}`,
    `${t} ${r}p/s w${c.waiting} p${c.processing} c${c.complete} d${c.discard} e${c.error} h${h} f${p.frontier} i${p.inFlight}`,
  ];
  const width = Math.max(1, columns - 1);
  for (const l of layouts) if (l.length <= width) return l;
  // Cut at a space, so that no figure is shown cut short.
  const shortest = layouts.at(-1) as string;
  const cut = shortest.lastIndexOf(' ', width);
  return cut > 0 ? shortest.slice(0, cut) : shortest.slice(0, width);
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

/** Control characters (a page may have put them in a warning) would drive the terminal. */
const printable = (s: string) => s.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '?');

const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function createProgressReporter(input: ProgressReporterOptions): ProgressReporter {
  const r = optionsSchema.safeParse(input);
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${i.path.join('.') || '(options)'}: ${i.message}`);
    throw new InvalidOptionError(`invalid progress options: ${problems.join('; ')}`, {
      cause: r.error,
    });
  }
  const { mode, write, columns, now = () => new Date() } = r.data;
  const width = () => (typeof columns === 'function' ? columns() : columns) ?? 80;

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

  if (mode === 'lines') {
    return {
      progress: (p) => write(`${stamp(now())} ${formatProgressLine(p)}\n`),
      page: () => {},
      warning: (m) => write(`${stamp(now())} warning: ${printable(m)}\n`),
      end: () => {},
    };
  }

  if (mode === 'quiet') {
    return {
      progress: () => {},
      page: () => {},
      warning: (m) => write(`warning: ${printable(m)}\n`),
      end: () => {},
    };
  }

  // bar
  let bar = '';
  return {
    progress(p) {
      bar = formatBar(p, width());
      write(CLEAR_LINE + bar);
    },
    page: () => {},
    warning(m) {
      const line = `warning: ${printable(m)}\n`;
      write(bar ? CLEAR_LINE + line + bar : line);
    },
    end(s) {
      // The final figures stay on screen; nothing is drawn if no bar ever was.
      if (bar) write(`${CLEAR_LINE}${formatBar(progressOfSummary(s), width())}\n`);
      bar = '';
    },
  };
}
