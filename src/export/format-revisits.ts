// The revisits section of the `status` table, for people. Pure.
import { formatCount, formatDuration, formatPercent, formatTime } from '../util/index.js';
import type { RevisitStatus } from './revisit-status.js';
import { formatTable } from './table.js';

const UNITS: [ms: number, name: string][] = [
  [1000, 's'],
  [60_000, 'min'],
  [3_600_000, 'hour'],
  [86_400_000, 'day'],
];

/** A rate as people read it: `0.5`, `0.00667`, `1,440`. */
const rate = (x: number) => (x >= 1000 ? formatCount(x) : String(+x.toPrecision(3)));

/** A budget as given: `30/min`, `2/s`, else `45 per 1m30s`. */
function formatBudget(b: { requests: number; perMs: number }): string {
  const unit = UNITS.find(([ms]) => ms === b.perMs);
  return unit
    ? `${rate(b.requests)}/${unit[1]}`
    : `${rate(b.requests)} per ${formatDuration(b.perMs)}`;
}

const plural = (n: number, one: string, many: string) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** `3 changed, 15 unchanged, 1 gone, 2 failed`. */
function foundList(found: Record<string, number>): string {
  const order = ['changed', 'unchanged', 'gone', 'failed'] as const;
  return order.map((c) => `${formatCount(found[c] ?? 0)} ${c}`).join(', ');
}

/** The revisits section: a blank line, then its rows. */
export function revisitLines(r: RevisitStatus): string[] {
  const out: string[] = [''];
  const row = (k: string, v: string) => out.push(`${k.padEnd(15)} ${v}`);
  const next = r.nextDueAt === null ? 'nothing scheduled' : `next due ${formatTime(r.nextDueAt)}`;
  row(
    'Revisits',
    `${plural(r.tracked, 'page', 'pages')} tracked, ${formatCount(r.scheduled)} scheduled, ${formatCount(r.due)} due now; ${next}`,
  );
  if (r.budget === null || r.watch === null) {
    row('  budget', '– (no watch recorded)');
  } else {
    row(
      '  budget',
      `${formatBudget(r.budget)} (${rate(r.budget.perSec)}/s), policy ${r.watch.policy}, discovery share ${formatPercent(r.watch.discoveryShare)}; watch started ${formatTime(r.watch.startedAt)}`,
    );
  }
  const h = r.lastHour;
  if (h === null) {
    row('  spent', '– (nothing fetched yet)');
  } else {
    const speed = h.perSec === null ? '–' : `${rate(h.perSec)}/s`;
    const share = h.ofBudget === null ? '' : ` (${formatPercent(h.ofBudget)} of the budget)`;
    const span = h.until - h.from < 3_600_000 ? ` (${formatDuration(h.until - h.from)})` : '';
    row(
      '  spent',
      `${speed}${share} over the last hour: ${plural(h.fetches, 'fetch', 'fetches')} + ${plural(h.revisits, 'revisit', 'revisits')}, ${formatTime(h.from)} → ${formatTime(h.until)}${span}`,
    );
  }
  const hour = (n: number | undefined) =>
    h === null ? '' : ` (${formatCount(n ?? 0)} in the last hour)`;
  row(
    '  revisits',
    `${formatCount(r.revisits)}${hour(h?.revisits)} vs ${formatCount(r.fetches)} new fetches${hour(h?.fetches)}`,
  );
  row(
    '  found',
    foundList(r.found) +
      (h === null || h.revisits === 0 ? '' : `; last hour: ${foundList(h.found)}`),
  );
  row(
    '  gone',
    r.gone === 0
      ? '0 pages'
      : `${plural(r.gone, 'page', 'pages')} (404, 410 or moved: no longer revisited)`,
  );
  const p = r.plan;
  if (p === null) {
    row('  freshness', '– (no revisit plan recorded)');
    return out;
  }
  row(
    '  freshness',
    `${formatPercent(p.expectedFreshness)} expected (plan of ${formatTime(p.at)}, ${p.policy}: ${formatCount(p.pages)} pages, ${formatCount(p.scheduled)} scheduled, ${formatCount(p.givenUp)} given up; ${rate(p.refreshPerDay)} revisits/day, ${rate(p.discoveryPerDay)} new URLs/day)`,
  );
  const rates = Object.entries(p.rates).map(([k, n]) => `${k} ${formatCount(n)}`);
  if (rates.length > 0) row('  change rates', `λ̂ per day: ${rates.join(', ')}`);
  if (p.next.length > 0) {
    out.push('  next due (plan)');
    const t = formatTable(
      ['url', 'due at', 'changes/day'],
      p.next.map((x) => [x.url, formatTime(x.dueAt), rate(x.rate)]),
    );
    for (const l of t) out.push(`    ${l}`);
  }
  return out;
}
