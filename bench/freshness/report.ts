// The markdown of a freshness benchmark run.
import type { EstimateFigures } from './estimates.js';
import type { Ceiling, RunFigures } from './truth.js';

export interface BenchSettings {
  seed: number;
  size: string;
  budget: string;
  /** The budget in requests per real day. */
  budgetPerDay: number;
  clockSpeed: number;
  durationMs: number;
  planIntervalMs: number;
  revisitConcurrency: number;
  delayMs: number;
  samples: number;
}

export interface PolicyResult {
  policy: string;
  realMs: number;
  figures: RunFigures;
  estimates: EstimateFigures | null;
  plans: number;
  lastPlan: { pages: number; scheduled: number; givenUp: number; expectedFreshness: number } | null;
  /** Every plan: ms since the start, its refresh and discovery budgets (per real day), pages. */
  planLog: {
    ms: number;
    refreshPerDay: number;
    discoveryPerDay: number;
    pages: number;
    scheduled: number;
    givenUp: number;
    expectedFreshness: number;
  }[];
  /** How long after its due time each revisit was answered (real ms; the due time may have moved in between). */
  lateness: { median: number; p90: number; n: number } | null;
  revisits: Record<string, number>;
  taken: { revisit: number; discovery: number; extra: number };
  warnings: string[];
  ceiling: Ceiling;
}

export interface BenchResult {
  date: string;
  settings: BenchSettings;
  runs: PolicyResult[];
  ratios: {
    changing: number | null;
    changingArticles: number | null;
    all: number | null;
    ceilingChanging: number | null;
    ceilingAll: number | null;
  };
}

const pct = (x: number | null | undefined): string =>
  x === null || x === undefined || Number.isNaN(x) ? '—' : `${(100 * x).toFixed(1)}%`;
const num = (x: number | null | undefined, d = 1): string =>
  x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d);
const int = (x: number): string => x.toLocaleString('en-US');
const times = (x: number | null): string => (x === null ? '—' : `${x.toFixed(2)}×`);

/** Plans of the second half that gave the revisits less than the whole budget (URLs were waiting). */
function halved(p: PolicyResult, s: BenchSettings): string {
  const second = p.planLog.filter((x) => x.ms >= s.durationMs / 2);
  const low = second.filter((x) => x.refreshPerDay < 0.99 * s.budgetPerDay);
  return `${low.length} of the ${second.length} plans of the second half gave the revisits less than the whole budget (URLs waiting)`;
}

export function markdown(r: BenchResult): string {
  const s = r.settings;
  const simDays = (s.durationMs * s.clockSpeed) / 86_400_000;
  const out: string[] = [];
  out.push(
    `news.test seed ${s.seed}, size ${s.size}; budget ${s.budget}; clock ×${s.clockSpeed}; ` +
      `${s.durationMs / 1000} s per run = ${num(simDays)} simulated days; planIntervalMs ` +
      `${s.planIntervalMs}, revisitConcurrency ${s.revisitConcurrency}, delayMs ${s.delayMs}; ` +
      `freshness averaged over ${s.samples} instants of the run (the figures below: its second half).\n`,
  );
  out.push(
    '| policy | requests | 200 / 304 | freshness | changing pages: freshness | of which articles / list pages | born pages fetched | median birth → first fetch | requests per useful change | most requests in one budget unit |',
  );
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const unit = s.budget.split('/')[1] ?? '';
  const perUnit = Number(s.budget.split('/')[0]);
  for (const p of r.runs) {
    const f = p.figures;
    out.push(
      `| ${p.policy} | ${int(f.requests)} | ${int(f.statuses['200'] ?? 0)} / ${int(f.statuses['304'] ?? 0)} | ` +
        `${pct(f.freshness)} | ${pct(f.freshnessChanging)} (${f.changingPages}) | ` +
        `${pct(f.freshnessChangingArticles)} (${f.changingArticles}) / ${pct(f.freshnessChangingLists)} (${f.changingPages - f.changingArticles}) | ` +
        `${f.born.fetched} of ${f.born.pages} | ${num(f.born.medianDelayHours)} h | ` +
        `${num(f.requestsPerUseful, 2)} (${int(f.changedCopies)} changed + ${int(f.newPages)} new) | ` +
        `${f.maxInWindow} (budget ${perUnit}/${unit}) |`,
    );
  }
  const c = r.runs.find((p) => p.policy === 'uniform')?.ceiling;
  out.push('');
  out.push(
    `freshness / uniform: changing pages ${times(r.ratios.changing)} (target ≥ 1.5×), changing articles ${times(r.ratios.changingArticles)}, all pages ${times(r.ratios.all)}.`,
  );
  if (c !== undefined) {
    out.push(
      `Ceiling with the true rates at uniform's ${num(c.revisitsPerDay, 0)} requests per simulated day over ${c.pages} pages: ` +
        `changing pages ${pct(c.optimal)} optimal against ${pct(c.uniform)} uniform (${times(r.ratios.ceilingChanging)}), ` +
        `all pages ${pct(c.optimalAll)} against ${pct(c.uniformAll)} (${times(r.ratios.ceilingAll)}).`,
    );
  }
  out.push('');
  out.push(
    'By true change rate λ (articles present at the start, changes per simulated day; second half): answered requests per article per simulated day, freshness, and the median λ̂ of the last plan.\n',
  );
  const pols = r.runs.map((p) => p.policy);
  out.push(
    `| λ | articles | ${pols.map((p) => `${p}: visits/day`).join(' | ')} | ${pols.map((p) => `${p}: freshness`).join(' | ')} | median λ | ${pols
      .filter((p) => p !== 'none')
      .map((p) => `${p}: median λ̂`)
      .join(' | ')} |`,
  );
  const cols = 2 + 2 * pols.length + 1 + pols.filter((p) => p !== 'none').length;
  out.push(`| --- |${' ---: |'.repeat(cols - 1)}`);
  const first = r.runs[0];
  for (let b = 0; b < (first?.figures.buckets.length ?? 0); b++) {
    const name = first?.figures.buckets[b]?.bucket ?? '';
    const row = [name, String(first?.figures.buckets[b]?.pages ?? 0)];
    for (const p of r.runs) row.push(num(p.figures.buckets[b]?.visitsPerDay, 2));
    for (const p of r.runs) row.push(pct(p.figures.buckets[b]?.freshness));
    const truth = r.runs.find((p) => p.estimates !== null)?.estimates?.buckets[b]?.medianTrue;
    row.push(num(truth, 2));
    for (const p of r.runs.filter((q) => q.policy !== 'none'))
      row.push(num(p.estimates?.buckets[b]?.medianEstimate, 2));
    out.push(`| ${row.join(' | ')} |`);
  }
  out.push('');
  for (const p of r.runs) {
    const e = p.estimates;
    out.push(
      `- ${p.policy}: ${(p.realMs / 1000).toFixed(1)} s; ${p.figures.siteFetchedS === null ? 'some pages of the start never fetched' : `every page of the start fetched after ${p.figures.siteFetchedS.toFixed(1)} s`}; ${int(p.taken.discovery)} discovery + ${int(p.taken.revisit)} revisit requests started ` +
        `(revisits: ${Object.entries(p.revisits)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}); ${p.plans} plans` +
        (p.lastPlan
          ? `, the last: ${p.lastPlan.scheduled} of ${p.lastPlan.pages} pages scheduled, ${p.lastPlan.givenUp} given up, expected freshness ${pct(p.lastPlan.expectedFreshness)}`
          : '') +
        (e
          ? `; λ̂ vs λ rank correlation ${num(e.spearman, 2)} (${e.byValidator.map((v) => `${v.validator} ${num(v.spearman, 2)}`).join(', ')}), median revisits per article ${num(e.medianVisits, 0)}`
          : '') +
        (p.policy !== 'none' ? `; ${halved(p, s)}` : '') +
        (p.policy !== 'none'
          ? `; at its own ${num(p.ceiling.revisitsPerDay, 0)} requests per simulated day (second half) the true rates allow ${pct(p.ceiling.optimal)} on the changing pages (${pct(p.ceiling.uniform)} revisiting uniformly)`
          : '') +
        `; by tenth of the run, changing pages' freshness ${p.figures.series.map((x) => pct(x.changing)).join(', ')}` +
        ` and share of the budget used ${p.figures.series.map((x) => pct(x.budgetUse)).join(', ')}` +
        (p.warnings.length > 0 ? `; warnings: ${p.warnings.slice(0, 3).join(' / ')}` : ''),
    );
  }
  return `${out.join('\n')}\n`;
}
