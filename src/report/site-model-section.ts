// The report's site model section (docs/site-model.md): the requests the crawl spent
// per URL pattern of the model and the share on valid patterns. Pure: gathered data
// in, markup out.
import { formatCount, formatPercent } from '../util/index.js';
import { COLORS } from './charts.js';
import { clip, escapeHtml as e, formatAxisNumber } from './format.js';
import type { ReportData, SiteModelReport } from './gather.js';
import { countAxis } from './scale.js';
import { stackedRows } from './svg.js';

/** Patterns drawn in the chart (the table lists them all, up to MAX_ROWS). */
const CHART_ROWS = 15;
/** Patterns listed in the table. */
const MAX_ROWS = 200;
const NO_PATTERN = '(matching no pattern)';
const GREY = '#888888';

/** Requests per pattern, the busiest first: valid, invalid and no pattern in their colours. */
export function requestsChart(m: SiteModelReport): string | null {
  const r = m.requests;
  const rows = r.rows.slice(0, CHART_ROWS);
  const labels = rows.map((x) => clip(x.pattern, 48));
  const valid = rows.map((x) => (x.verdict === 'valid' ? x.requests : 0));
  const invalid = rows.map((x) => (x.verdict === 'invalid' ? x.requests : 0));
  const none = rows.map(() => 0);
  if (r.unknown > 0) {
    labels.push(NO_PATTERN);
    valid.push(0);
    invalid.push(0);
    none.push(r.unknown);
  }
  if (labels.length === 0) return null;
  const max = Math.max(...rows.map((x) => x.requests), r.unknown);
  return stackedRows({
    title: 'Requests per URL pattern of the site model',
    rows: labels,
    x: { ...countAxis(max), label: 'requests', format: formatAxisNumber },
    stacks: [
      { label: 'valid pattern', color: COLORS.complete, values: valid },
      { label: 'invalid pattern', color: COLORS.error, values: invalid },
      { label: 'no pattern', color: GREY, values: none },
    ],
  });
}

function table(m: SiteModelReport): string {
  const r = m.requests;
  const share = (n: number) =>
    `<td class="n">${formatPercent(r.total > 0 ? n / r.total : null)}</td>`;
  const rows = r.rows.slice(0, MAX_ROWS).map((x, i) => {
    const kind = x.role === 'duplicate' ? `${x.kind}; a duplicate pattern` : x.kind;
    return `<tr><td class="n">${i + 1}</td><td><code>${e(x.pattern)}</code></td><td>${x.verdict}</td><td>${e(kind)}</td><td class="n">${formatCount(x.requests)}</td>${share(x.requests)}</tr>`;
  });
  const more = r.rows.length - MAX_ROWS;
  if (more > 0)
    rows.push(
      `<tr><td></td><td colspan="5"><i>… and ${formatCount(more)} more patterns</i></td></tr>`,
    );
  if (r.unknown > 0) {
    rows.push(
      `<tr><td></td><td><i>${NO_PATTERN}</i></td><td>unknown</td><td>–</td><td class="n">${formatCount(r.unknown)}</td>${share(r.unknown)}</tr>`,
    );
  }
  return `<table class="sitemodel"><tr><th>#</th><th>pattern</th><th>verdict</th><th>kind</th><th>requests</th><th>share</th></tr>${rows.join('')}</table>`;
}

/** The site model section, when the store has a model. */
export function siteModelSection(d: ReportData): string | null {
  const m = d.siteModel;
  if (m === null) return null;
  const r = m.requests;
  const head = '<h2>Site model</h2>';
  const others =
    r.offSite === 0
      ? ''
      : ` ${formatCount(r.offSite)} more ${r.offSite === 1 ? 'request was' : 'requests were'} on other hosts.`;
  const summary =
    `<b>${formatPercent(r.validShare)}</b> of the ${formatCount(r.total)} requests on the model’s hosts (${e(m.hosts.join(', '))}) were on valid patterns ` +
    `(${formatCount(r.valid)}), ${formatCount(r.total - r.valid - r.unknown)} on invalid ones, ${formatCount(r.unknown)} on URLs matching no pattern.${others} ` +
    `A request is a fetch the crawl sent (pages kept or rejected, redirect hops, failures that reached the network; not URLs refused before any request, such as by robots.txt), each URL going to the pattern that decides it; the model was learnt ${e(m.learnedAt)}.`;
  if (r.total === 0) {
    return `<section id="sitemodel">${head}<p class="note">${summary}</p><p class="empty">No request on the model’s hosts yet.</p></section>`;
  }
  const chart = requestsChart(m) ?? '';
  return `<section id="sitemodel">${head}<p class="note">${summary}</p>${chart}${table(m)}</section>`;
}
