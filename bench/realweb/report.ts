// Markdown tables of a benchmark result: one per topic and a summary per configuration.
import type { BenchResult, RunResult, TopicResult } from './bench.js';
import { REFERENCE } from './focuscrawl.js';

const dash = (n: number | null | undefined) => (n == null ? '—' : String(n));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export function topicTable(t: TopicResult): string {
  const lines = [
    `**${t.id}** — ${t.name} (${t.site}, ${t.labelled} labelled pages)`,
    '',
    row([
      'run',
      'fetches to 50%',
      'to 90%',
      'harvest@100',
      'harvest@500',
      'pages fetched',
      'own site to 50%',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const r of t.runs) {
    const f = r.figures;
    const note = r.error ? ' (error)' : '';
    lines.push(
      row([
        `${r.config}${note}`,
        dash(f.to50),
        dash(f.to90),
        pct(f.harvest100),
        pct(f.harvest500),
        String(f.fetches),
        dash(f.ownTo50),
      ]),
    );
  }
  return lines.join('\n');
}

export interface SummaryRow {
  config: string;
  topics: number;
  /** Topics where the configuration reached 50% in fewer fetches than the reference (null when it is the reference). */
  fasterThanReference: number | null;
  median50: number;
  meanHarvest500: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function summary(res: BenchResult): SummaryRow[] {
  const names: string[] = [];
  for (const t of res.topics)
    for (const r of t.runs) if (!names.includes(r.config)) names.push(r.config);
  const to50 = (r: RunResult | undefined) => r?.figures.to50 ?? res.budget;
  return names.map((config) => {
    const runs = res.topics.flatMap((t) => {
      const r = t.runs.find((x) => x.config === config);
      return r ? [{ t, r }] : [];
    });
    let faster: number | null = config === REFERENCE ? null : 0;
    if (faster !== null) {
      for (const { t, r } of runs) {
        const ref = t.runs.find((x) => x.config === REFERENCE);
        const mine = r.figures.to50;
        const theirs = ref?.figures.to50 ?? null;
        if (ref && mine !== null && (theirs === null || mine < theirs)) faster++;
      }
    }
    return {
      config,
      topics: runs.length,
      fasterThanReference: faster,
      median50: median(runs.map(({ r }) => to50(r))),
      meanHarvest500:
        runs.reduce((s, { r }) => s + r.figures.harvest500, 0) / Math.max(1, runs.length),
    };
  });
}

export function summaryTable(res: BenchResult): string {
  const lines = [
    row([
      'run',
      `topics reaching 50% in fewer fetches than ${REFERENCE}`,
      'median fetches to 50%',
      'mean harvest@500',
    ]),
    row(['---', '---:', '---:', '---:']),
  ];
  for (const s of summary(res)) {
    lines.push(
      row([
        s.config,
        s.fasterThanReference === null ? '(reference)' : `${s.fasterThanReference} of ${s.topics}`,
        String(s.median50),
        pct(s.meanHarvest500),
      ]),
    );
  }
  return lines.join('\n');
}

export function markdown(res: BenchResult): string {
  return [
    `Budget ${res.budget} fetches per run from http://portal.docs.test/; sites: ${res.sites.join(', ')}; ${res.date}.`,
    'Fetches to 50% / 90% of the labelled pages (— never within the budget); harvest@N: labelled pages',
    'first served within the first N fetches, over N; own site to 50%: how many of the fetches to 50%',
    "went to the topic's own site. Unreached counts as the budget in the median.",
    '',
    summaryTable(res),
    '',
    ...res.topics.flatMap((t) => [topicTable(t), '']),
  ].join('\n');
}

/** Several results (same budget) as one: each topic's runs in the order first seen. */
export function mergeResults(results: BenchResult[]): BenchResult {
  const [first, ...rest] = results;
  if (!first) throw new Error('nothing to merge');
  const merged: BenchResult = {
    ...first,
    topics: first.topics.map((t) => ({ ...t, runs: [...t.runs] })),
  };
  for (const r of rest) {
    if (r.budget !== first.budget)
      throw new Error(`budgets differ: ${first.budget} and ${r.budget}`);
    for (const t of r.topics) {
      const into = merged.topics.find((x) => x.id === t.id);
      if (!into) merged.topics.push(t);
      else
        for (const run of t.runs)
          into.runs = [...into.runs.filter((x) => x.config !== run.config), run];
    }
  }
  return merged;
}
