// The report's charts, from gathered data to inline SVG (or a sentence when there is
// nothing to draw). Pure.
import { formatCount } from '../util/index.js';
import { clip, displayHost, formatAxisNumber, formatTick } from './format.js';
import type { ReportData } from './gather.js';
import { countAxis, niceAxis, timeAxis, UNIT_AXIS } from './scale.js';
import { type AxisSpec, type LineSeries, lineChart, stackedColumns, stackedRows } from './svg.js';

/** Colour-blind-safe colours (Okabe–Ito). */
export const COLORS = {
  complete: '#009E73',
  discard: '#E69F00',
  error: '#D55E00',
  waiting: '#0072B2',
  cumulative: '#0072B2',
  recent: '#CC79A7',
} as const;

/** Colours for one line per run (Okabe–Ito without its yellow, then grey); dashes beyond eight. */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#000000',
  '#888888',
] as const;

export const NO_PAGES = 'No pages fetched yet.';

const empty = (text: string) => `<p class="empty">${text}</p>`;
const percent = (v: number) => `${Math.round(v * 100)}%`;

/** Sentence for a chart of pages when no page (complete or discard) exists. */
function noPages(d: ReportData): string {
  const failed = d.timeline.points.at(-1)?.error ?? 0;
  return failed > 0
    ? empty(`No pages fetched yet: all ${formatCount(failed)} fetches failed.`)
    : empty(NO_PAGES);
}

/** Chart 1: cumulative and recent harvest rate against pages fetched. */
export function harvestChart(d: ReportData): string {
  const pts = d.harvest.points;
  const last = pts.at(-1);
  if (!last) return noPages(d);
  const x: AxisSpec = {
    ...countAxis(last.pages),
    label: 'pages fetched (complete + discard), in fetch order',
    format: formatAxisNumber,
  };
  const y: AxisSpec = { ...UNIT_AXIS, label: 'harvest rate', format: percent };
  return lineChart({
    title: 'Harvest rate over the crawl',
    x,
    y,
    series: [
      {
        label: 'whole crawl so far',
        color: COLORS.cumulative,
        points: pts.map((p) => [p.pages, p.cumulative] as const),
      },
      {
        label: `last ${d.harvest.window} pages`,
        color: COLORS.recent,
        dashed: true,
        points: pts.map((p) => [p.pages, p.recent] as const),
      },
    ],
  });
}

const BIN_TICKS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** Chart 2: relevance histogram of fetched pages, complete and discard stacked. */
export function relevanceChart(d: ReportData): string {
  const h = d.histogram;
  const totals = h.complete.map((c, i) => c + (h.discard[i] ?? 0));
  const max = Math.max(0, ...totals);
  if (max === 0) return noPages(d);
  // The threshold in force now, when the crawl moved it.
  const threshold = d.threshold?.value ?? d.topic.threshold;
  return stackedColumns({
    title: 'Relevance of fetched pages',
    x: {
      min: 0,
      max: 1,
      ticks: BIN_TICKS,
      label: `relevance (${h.bins} bins of ${1 / h.bins})`,
      format: (v) => String(v),
    },
    y: { ...countAxis(max), label: 'pages', format: formatAxisNumber },
    stacks: [
      { label: 'complete (kept)', color: COLORS.complete, values: h.complete },
      { label: 'discard', color: COLORS.discard, values: h.discard },
    ],
    ...(threshold !== null && threshold >= 0 && threshold <= 1
      ? { marker: { x: threshold, label: `threshold ${threshold}` } }
      : {}),
  });
}

/** Chart 3: cumulative outcomes and the (approximate) frontier over time or fetches. */
export function statesChart(d: ReportData): string {
  const pts = d.timeline.points;
  const last = pts.at(-1);
  if (!last) return empty(NO_PAGES);
  const first = d.timeline.firstFetchAt ?? 0;
  const byTime = d.timeline.axis === 'time';
  const xOf = byTime
    ? (p: (typeof pts)[number]) => p.at - first
    : (p: (typeof pts)[number]) => p.fetches;
  const x: AxisSpec = byTime
    ? { ...timeAxis(last.at - first), label: 'time since the first fetch', format: formatTick }
    : { ...countAxis(last.fetches), label: 'fetches, in order', format: formatAxisNumber };
  const max = Math.max(...pts.map((p) => Math.max(p.complete, p.discard, p.error, p.waiting)));
  const series = (['complete', 'discard', 'error', 'waiting'] as const).map((k) => ({
    label: k === 'waiting' ? 'waiting (approx.)' : k,
    color: COLORS[k],
    ...(k === 'waiting' ? { dashed: true } : {}),
    points: pts.map((p) => [xOf(p), p[k]] as const),
  }));
  return lineChart({
    title: byTime ? 'URL states over time' : 'URL states over the fetches',
    x,
    y: { ...countAxis(max), label: 'URLs', format: formatAxisNumber },
    series,
  });
}

/** Chart 5: fetches per host, complete / discard / error stacked. */
export function hostsChart(d: ReportData): string {
  const hosts = d.hosts.filter((h) => h.fetched > 0);
  if (hosts.length === 0) return empty(NO_PAGES);
  const max = Math.max(...hosts.map((h) => h.fetched));
  return stackedRows({
    title: 'Fetches per host (busiest hosts)',
    rows: hosts.map((h) => clip(displayHost(h.host), 40)),
    x: { ...countAxis(max), label: 'fetches', format: formatAxisNumber },
    stacks: [
      { label: 'complete', color: COLORS.complete, values: hosts.map((h) => h.complete) },
      { label: 'discard', color: COLORS.discard, values: hosts.map((h) => h.discard) },
      { label: 'error', color: COLORS.error, values: hosts.map((h) => h.error) },
    ],
  });
}

/** Change dots drawn on the threshold chart; beyond this many the step line alone shows them. */
const MAX_CHANGE_DOTS = 200;

/**
 * The points of a step line of the threshold over fetches: flat at `initial` from 0,
 * a vertical step at each change, flat at the current value up to `fetched`.
 */
export function thresholdSteps(
  h: NonNullable<ReportData['threshold']>,
  fetched: number,
): [x: number, y: number][] {
  const pts: [number, number][] = [[0, h.initial]];
  for (const c of h.changes) pts.push([c.fetched, c.from], [c.fetched, c.to]);
  const lastX = h.changes.at(-1)?.fetched ?? 0;
  pts.push([Math.max(fetched, lastX), h.value]);
  return pts;
}

/** Chart 4: the keep/discard threshold over the fetches, when the crawl recorded its history. */
export function thresholdChart(d: ReportData): string | null {
  const h = d.threshold;
  if (h === null) return null;
  const pts = thresholdSteps(h, d.stats.fetched);
  const xMax = Math.max(1, ...pts.map((p) => p[0]));
  const yMax = Math.max(...pts.map((p) => p[1]));
  const series: LineSeries[] = [
    { label: `threshold (${h.kind})`, color: COLORS.cumulative, points: pts },
  ];
  if (h.changes.length > 0 && h.changes.length <= MAX_CHANGE_DOTS) {
    series.push({
      label: 'changes',
      color: COLORS.recent,
      dotsOnly: true,
      points: h.changes.map((c) => [c.fetched, c.to] as const),
    });
  }
  return lineChart({
    title: 'Threshold over the crawl',
    x: { ...countAxis(xMax), label: 'fetches, in order', format: formatAxisNumber },
    y: {
      ...niceAxis(0, yMax > 0 ? yMax : 1),
      label: 'threshold',
      format: formatAxisNumber,
    },
    series,
  });
}
