// `evaluate` and `compare` as text tables for people. Pure.
import { formatTable } from '../export/index.js';
import { formatCount, formatPercent } from '../util/index.js';
import type { Comparison } from './compare-types.js';
import type { BudgetPoint } from './metrics.js';
import type { StoreEvaluation } from './store.js';

const dash = '–';
const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? dash : formatPercent(x);

/** `labels.json, topic monitor (显示器市场): 1,234 relevant URLs`. */
export function describeLabels(l: StoreEvaluation['labels'], labelled: number): string {
  const topic =
    l.topic === null ? '' : `, topic ${l.topic}${l.topicName === null ? '' : ` (${l.topicName})`}`;
  return `${l.source}${topic}: ${formatCount(labelled)} relevant URLs`;
}

function budgetLabel(b: BudgetPoint): string {
  return b.end ? 'end' : formatCount(b.budget);
}

/** The evaluation of one crawl (the `evaluate` command's output). */
export function formatEvaluation(ev: StoreEvaluation, store: string): string {
  const lines: string[] = [];
  const row = (k: string, v: string) => lines.push(`${k.padEnd(15)} ${v}`);
  row('Store', store);
  row('Labels', describeLabels(ev.labels, ev.labelled));
  const c = ev.crawl;
  const how = [
    c.strategy ?? null,
    c.stopReason ?? null,
    c.pagesPerSec === null ? null : `${c.pagesPerSec.toFixed(1)} pages/s`,
  ].filter((x) => x !== null);
  row(
    'Crawl',
    `${formatCount(ev.fetched)} fetched (${formatCount(ev.pages)} pages, ${formatCount(ev.errors)} failed)${how.length > 0 ? `; ${how.join(', ')}` : ''}`,
  );
  lines.push(
    '',
    'Harvest rate (relevant pages / fetches) and target recall (relevant pages / labelled)',
  );
  const table = formatTable(
    ['budget', 'fetched', 'relevant', 'harvest rate', 'target recall'],
    ev.budgets.map((b) =>
      b.at === null
        ? [budgetLabel(b), dash, dash, 'not reached', dash]
        : [
            budgetLabel(b),
            formatCount(b.at.fetched),
            formatCount(b.at.relevant),
            formatPercent(b.at.harvestRate),
            formatPercent(b.at.recall),
          ],
    ),
  );
  for (const l of table) lines.push(`  ${l}`);

  const d = ev.decision;
  lines.push(
    '',
    `Keep/discard decision over ${formatCount(ev.pages)} fetched pages (kept = complete)`,
  );
  const matrix = formatTable(
    ['', 'relevant', 'not relevant'],
    [
      ['kept', formatCount(d.truePositive), formatCount(d.falsePositive)],
      ['discarded', formatCount(d.falseNegative), formatCount(d.trueNegative)],
    ],
  );
  for (const l of matrix) lines.push(`  ${l}`);
  lines.push(`  precision ${pct(d.precision)}, recall ${pct(d.recall)}, F1 ${pct(d.f1)}`);
  return lines.join('\n');
}

/** Figures at `budget` of one run, or null when the run did not get there. */
export function atBudget(ev: StoreEvaluation, budget: number): BudgetPoint['at'] {
  return ev.budgets.find((b) => b.budget === budget)?.at ?? null;
}

/** The comparison table: one row per run. */
export function compareRows(c: Comparison): { header: string[]; rows: string[][] } {
  const header = ['run', 'fetched'];
  for (const b of c.budgets) header.push(`harvest@${formatCount(b)}`);
  header.push('harvest@end');
  for (const b of c.budgets) header.push(`recall@${formatCount(b)}`);
  header.push('recall@end', 'keep precision', 'keep recall', 'keep F1', 'pages/s');
  const rows = c.runs.map((r) => {
    const ev = r.evaluation;
    const cells = [r.name, formatCount(ev.fetched)];
    for (const b of c.budgets) cells.push(pct(atBudget(ev, b)?.harvestRate));
    cells.push(pct(ev.harvestRate));
    for (const b of c.budgets) cells.push(pct(atBudget(ev, b)?.recall));
    cells.push(
      pct(ev.fetched > 0 ? ev.recall : null),
      pct(ev.decision.precision),
      pct(ev.decision.recall),
      pct(ev.decision.f1),
      ev.crawl.pagesPerSec === null ? dash : ev.crawl.pagesPerSec.toFixed(1),
    );
    return cells;
  });
  return { header, rows };
}

/** The comparison as text (the `compare` command's closing output). */
export function formatComparison(c: Comparison): string {
  const { header, rows } = compareRows(c);
  const lines = [
    `Labels: ${describeLabels(c.labels, c.labelled)}; budget ${formatCount(c.maxPages)} fetches per run`,
    '',
    ...formatTable(header, rows),
    '',
    'harvest = relevant pages / fetches; recall = relevant pages / labelled relevant URLs;',
    'keep precision/recall/F1 = the keep/discard decision against the labels.',
  ];
  return lines.join('\n');
}
