// The report's revisits section (DESIGN 1.3): what the revisits found over time, the
// share that found the page unchanged (freshness as measured at visit time), and the
// pages' change rates λ̂ by decade. Pure: gathered data in, markup out.
import { formatCount, formatPercent } from '../util/index.js';
import { escapeHtml as e, formatAxisNumber, formatTick, formatTime } from './format.js';
import type { ReportData } from './gather.js';
import type { RevisitReport } from './revisits.js';
import { countAxis, timeAxis, UNIT_AXIS } from './scale.js';
import { type AxisSpec, lineChart, stackedColumns } from './svg.js';

/** Colour-blind-safe colours (Okabe–Ito) of what a revisit found. */
export const VISIT_COLORS = {
  changed: '#0072B2',
  unchanged: '#009E73',
  gone: '#D55E00',
  failed: '#888888',
} as const;

const percent = (v: number) => `${Math.round(v * 100)}%`;

/** The time axis of the buckets: elapsed time since the first bucket's start, ending at the last one's end. */
function bucketAxis(r: RevisitReport): AxisSpec {
  const span = r.buckets.length * r.bucketMs;
  const ticks = timeAxis(span).ticks.filter((t) => t <= span);
  return {
    min: 0,
    max: span,
    ticks,
    label: `time since ${formatTime(r.buckets[0]?.start ?? r.firstVisitAt)} (buckets of ${formatTick(r.bucketMs)})`,
    format: formatTick,
  };
}

/** Revisits per time bucket, changed / unchanged / gone / failed stacked. */
export function changesChart(r: RevisitReport): string {
  const max = Math.max(...r.buckets.map((b) => b.changed + b.unchanged + b.gone + b.failed));
  const stack = (k: keyof typeof VISIT_COLORS) => ({
    label: k,
    color: VISIT_COLORS[k],
    values: r.buckets.map((b) => b[k]),
  });
  return stackedColumns({
    title: 'Revisits over time, by what they found',
    x: bucketAxis(r),
    y: { ...countAxis(max), label: 'revisits', format: formatAxisNumber },
    stacks: [stack('changed'), stack('unchanged'), stack('gone'), stack('failed')],
  });
}

/** Per bucket with an answer (a middle x, the share): unchanged / (unchanged + changed + gone). */
export function unchangedShares(r: RevisitReport): [x: number, share: number][] {
  const pts: [number, number][] = [];
  r.buckets.forEach((b, i) => {
    const answered = b.unchanged + b.changed + b.gone;
    if (answered > 0) pts.push([(i + 0.5) * r.bucketMs, b.unchanged / answered]);
  });
  return pts;
}

/** The share of revisits that found the page unchanged, per bucket. */
export function freshnessChart(r: RevisitReport): string | null {
  const pts = unchangedShares(r);
  if (pts.length === 0) return null;
  return lineChart({
    title: 'Share of revisits finding the page unchanged',
    x: bucketAxis(r),
    y: { ...UNIT_AXIS, label: 'unchanged at revisit', format: percent },
    series: [
      { label: 'unchanged / answered revisits', color: VISIT_COLORS.unchanged, points: pts },
    ],
  });
}

/** Pages per λ̂ decade: scheduled, not scheduled, gone stacked. */
export function ratesChart(r: RevisitReport): string | null {
  const totals = r.rates.map((b) => b.scheduled + b.unscheduled + b.gone);
  const max = Math.max(0, ...totals);
  if (max === 0) return null;
  const n = r.rates.length;
  return stackedColumns({
    title: 'Change rates of the revisited pages',
    x: {
      min: 0,
      max: n,
      ticks: r.rates.map((_, i) => i + 0.5),
      label: 'λ̂, estimated changes per day (by decade)',
      format: (v) => r.rates[Math.floor(v)]?.label ?? '',
    },
    y: { ...countAxis(max), label: 'pages', format: formatAxisNumber },
    stacks: [
      { label: 'scheduled', color: VISIT_COLORS.changed, values: r.rates.map((b) => b.scheduled) },
      {
        label: 'not scheduled (given up)',
        color: '#E69F00',
        values: r.rates.map((b) => b.unscheduled),
      },
      { label: 'gone', color: VISIT_COLORS.gone, values: r.rates.map((b) => b.gone) },
    ],
  });
}

/** The revisits section, when the store has recorded visits. */
export function revisitSection(d: ReportData): string | null {
  const r = d.revisits;
  if (r === null) return null;
  const t = r.totals;
  const n = t.changed + t.unchanged + t.gone + t.failed;
  const summary =
    `${formatCount(n)} revisits of ${formatCount(r.pages)} pages, ${e(formatTime(r.firstVisitAt))} → ${e(formatTime(r.lastVisitAt))}: ` +
    `${formatCount(t.changed)} found a change, ${formatCount(t.unchanged)} none, ${formatCount(t.gone)} the page gone (404, 410 or moved), ` +
    `${formatCount(t.failed)} failed (no answer, or an HTTP error). A revisit counts a change only when the page's visible text changed.`;
  const answered = t.changed + t.unchanged + t.gone;
  const fresh = freshnessChart(r);
  const freshNote =
    `Freshness over time, as measured: per bucket, the share of revisits that found the page unchanged since the visit before (unchanged / (unchanged + changed + gone); failed revisits found nothing and are left out; ${formatPercent(answered > 0 ? t.unchanged / answered : null)} over all revisits). ` +
    'It is a proxy of freshness at visit time: a page is revisited when its copy is oldest, so the stored copies are on average fresher than this share. The revisit plan’s expected freshness (a model estimate) is in <code>focuscrawl status</code>.';
  const rates = ratesChart(r);
  const unrated =
    r.unrated === 0
      ? ''
      : r.unrated === 1
        ? ' 1 page has no estimate yet and is not shown.'
        : ` ${formatCount(r.unrated)} pages have no estimate yet and are not shown.`;
  const ratesNote =
    'Each revisited page’s estimated change rate λ̂ (changes per day: its own visits, shrunk toward pages of the same URL pattern), by decade. ' +
    `Not scheduled: the plan gave up on the page (it changes faster than the budget can follow) or does not revisit; gone pages are no longer revisited.${unrated}`;
  const parts = [
    '<h2>Revisits</h2>',
    `<p class="note">${summary}</p>`,
    changesChart(r),
    `<p class="note">Revisits per time bucket (UTC, buckets of ${e(formatTick(r.bucketMs))}), by what they found.</p>`,
    ...(fresh === null
      ? ['<p class="empty">No revisit got an answer yet: no freshness to show.</p>']
      : [fresh, `<p class="note">${freshNote}</p>`]),
    ...(rates === null
      ? [`<p class="note">No change rate estimated yet.${unrated}</p>`]
      : [rates, `<p class="note">${ratesNote}</p>`]),
  ];
  return `<section id="revisits">${parts.join('')}</section>`;
}
