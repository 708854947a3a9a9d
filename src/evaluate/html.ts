// The HTML pages of `evaluate --out` and `compare`: self-contained like the crawl
// report (same style sheet and Content-Security-Policy), curves as inline SVG. Pure.
import {
  type AxisSpec,
  COLORS,
  countAxis,
  escapeHtml as e,
  formatAxisNumber,
  formatTime,
  htmlDocument,
  type LineSeries,
  lineChart,
  PALETTE,
  UNIT_AXIS,
} from '../report/index.js';
import { formatCount, formatPercent } from '../util/index.js';
import type { Comparison } from './compare-types.js';
import { atBudget, compareRows, describeLabels } from './format.js';
import type { CurvePoint } from './metrics.js';
import type { StoreEvaluation } from './store.js';

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? '–' : formatPercent(x);
const percentTick = (v: number) => `${Math.round(v * 100)}%`;
const empty = (text: string) => `<p class="empty">${e(text)}</p>`;

/** One curve as a chart, one line per series; a sentence when nothing was fetched. */
function curveChart(
  title: string,
  yLabel: string,
  lines: { label: string; color: string; dashed?: boolean; curve: readonly CurvePoint[] }[],
  pick: (p: CurvePoint) => number,
): string {
  const xMax = Math.max(0, ...lines.map((l) => l.curve.at(-1)?.fetched ?? 0));
  if (xMax === 0) return empty('No fetches yet.');
  const x: AxisSpec = {
    ...countAxis(xMax),
    label: 'fetches (pages fetched, failed fetches included), in order',
    format: formatAxisNumber,
  };
  const y: AxisSpec = { ...UNIT_AXIS, label: yLabel, format: percentTick };
  const series: LineSeries[] = lines.map((l) => ({
    label: l.label,
    color: l.color,
    ...(l.dashed ? { dashed: true } : {}),
    points: l.curve.map((p) => [p.fetched, pick(p)] as const),
  }));
  return lineChart({ title, x, y, series });
}

function metaList(rows: [string, string][]): string {
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function table(header: string[], rows: string[][], numericFrom = 1): string {
  const th = header.map((h) => `<th>${e(h)}</th>`).join('');
  const trs = rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => (i >= numericFrom ? `<td class="n">${e(c)}</td>` : `<td>${e(c)}</td>`)).join('')}</tr>`,
    )
    .join('');
  return `<table>${`<tr>${th}</tr>`}${trs}</table>`;
}

const FIGURES_NOTE =
  'Harvest rate: labelled-relevant pages fetched / fetches so far. Target recall: labelled-relevant pages fetched / all labelled-relevant URLs. A relevant URL counts once, when it is fetched as a page (kept or discarded); failed fetches count as fetches.';
const DECISION_NOTE =
  "The crawl's keep/discard decision against the labels, over the fetched pages: kept means state complete. Precision: kept pages that are relevant / kept pages. Recall: kept relevant pages / relevant pages fetched. F1: their harmonic mean.";

function decisionTable(ev: StoreEvaluation): string {
  const d = ev.decision;
  const matrix = table(
    ['', 'relevant', 'not relevant'],
    [
      ['kept (complete)', formatCount(d.truePositive), formatCount(d.falsePositive)],
      ['discarded', formatCount(d.falseNegative), formatCount(d.trueNegative)],
    ],
  );
  const scores = table(
    ['precision', 'recall', 'F1'],
    [[pct(d.precision), pct(d.recall), pct(d.f1)]],
    0,
  );
  return `${matrix}${scores}`;
}

/** The page of `evaluate --out`. */
export function renderEvaluation(
  ev: StoreEvaluation,
  o: { title: string; store: string; now: number },
): string {
  const c = ev.crawl;
  const header = metaList([
    ['Store', e(o.store)],
    ['Labels', e(describeLabels(ev.labels, ev.labelled))],
    [
      'Crawl',
      e(
        `${formatCount(ev.fetched)} fetches (${formatCount(ev.pages)} pages, ${formatCount(ev.errors)} failed)` +
          `${c.strategy === null ? '' : `, ${c.strategy}`}${c.stopReason === null ? '' : `, ${c.stopReason}`}` +
          `${c.pagesPerSec === null ? '' : `, ${c.pagesPerSec.toFixed(1)} pages/s`}`,
      ),
    ],
    ['Generated', e(formatTime(o.now))],
  ]);
  const budgets = table(
    ['budget', 'fetched', 'relevant', 'harvest rate', 'target recall'],
    ev.budgets.map((b) => {
      const label = b.end ? `end (${formatCount(b.budget)})` : formatCount(b.budget);
      return b.at === null
        ? [label, '–', '–', 'not reached', '–']
        : [
            label,
            formatCount(b.at.fetched),
            formatCount(b.at.relevant),
            formatPercent(b.at.harvestRate),
            formatPercent(b.at.recall),
          ];
    }),
  );
  const line = [{ label: 'this crawl', color: COLORS.cumulative, curve: ev.curve }];
  const body = [
    `<header><h1>${e(o.title)}</h1>${header}</header>`,
    `<section id="budgets"><h2>At fixed budgets</h2>${budgets}<p class="note">${e(FIGURES_NOTE)}</p></section>`,
    `<section id="harvest"><h2>Harvest rate</h2>${curveChart('Harvest rate over the crawl', 'harvest rate', line, (p) => p.harvestRate)}</section>`,
    `<section id="recall"><h2>Target recall</h2>${curveChart('Target recall over the crawl', 'target recall', line, (p) => p.recall)}</section>`,
    `<section id="decision"><h2>Keep/discard decision</h2>${decisionTable(ev)}<p class="note">${e(DECISION_NOTE)}</p></section>`,
    `<footer>Generated by focuscrawl on ${e(formatTime(o.now))}. Self-contained: this file loads nothing from the network.</footer>`,
  ];
  return htmlDocument(o.title, body);
}

/** Colour and dash of the i-th run. */
function runStyle(i: number): { color: string; dashed?: boolean } {
  const color = PALETTE[i % PALETTE.length] as string;
  return i >= PALETTE.length ? { color, dashed: true } : { color };
}

/** The page `compare` writes: one chart per curve with a line per run, and the table. */
export function renderComparison(c: Comparison, o: { title: string }): string {
  const header = metaList([
    ['Folder', e(c.outDir)],
    ['Topic', e(c.topic)],
    ['Seeds', e(c.seeds === 0 ? "the topic's" : formatCount(c.seeds))],
    ['Labels', e(describeLabels(c.labels, c.labelled))],
    ['Budget', e(`${formatCount(c.maxPages)} fetches per run`)],
    ['Generated', e(formatTime(c.generatedAt))],
  ]);
  const lines = c.runs.map((r, i) => ({
    label: r.name,
    ...runStyle(i),
    curve: r.evaluation.curve,
  }));
  const { header: th, rows } = compareRows(c);
  const specs = table(
    ['run', 'spec', 'store', 'strategy', 'stop reason', 'this time'],
    c.runs.map((r) => [
      r.name,
      r.spec,
      r.store,
      r.evaluation.crawl.strategy ?? '–',
      r.evaluation.crawl.stopReason ?? '–',
      r.action,
    ]),
    99,
  );
  const relevantRows = c.runs.map((r) => [
    r.name,
    ...c.budgets.map((b) => {
      const at = atBudget(r.evaluation, b);
      return at === null ? '–' : formatCount(at.relevant);
    }),
    formatCount(r.evaluation.relevant),
  ]);
  const body = [
    `<header><h1>${e(o.title)}</h1>${header}</header>`,
    `<section id="table"><h2>Results</h2>${table(th, rows)}<p class="note">${e(FIGURES_NOTE)} Keep precision, recall and F1 score ${e(DECISION_NOTE.charAt(0).toLowerCase() + DECISION_NOTE.slice(1))} Pages/s: fetches / the crawl's time (its runs added up).</p></section>`,
    `<section id="harvest"><h2>Harvest rate</h2>${curveChart('Harvest rate over the crawl, per run', 'harvest rate', lines, (p) => p.harvestRate)}</section>`,
    `<section id="recall"><h2>Target recall</h2>${curveChart('Target recall over the crawl, per run', 'target recall', lines, (p) => p.recall)}</section>`,
    `<section id="relevant"><h2>Relevant pages fetched</h2>${table(['run', ...c.budgets.map((b) => `at ${formatCount(b)}`), 'at the end'], relevantRows)}</section>`,
    `<section id="runs"><h2>Runs</h2>${specs}</section>`,
    `<footer>Generated by focuscrawl on ${e(formatTime(c.generatedAt))}. Self-contained: this file loads nothing from the network.</footer>`,
  ];
  return htmlDocument(o.title, body);
}
