// The report page: header, statistics, charts and tables, as one self-contained
// HTML document (inline CSS and SVG, no script, nothing loaded from elsewhere).
// Pure: gathered data in, markup out. Text from the web is always escaped.
import {
  COLORS,
  harvestChart,
  hostsChart,
  NO_PAGES,
  relevanceChart,
  statesChart,
} from './charts.js';
import {
  clip,
  displayHost,
  displayUrl,
  escapeHtml as e,
  formatBytes,
  formatCount,
  formatDuration,
  formatPercent,
  formatTime,
  safeHref,
} from './format.js';
import type { ReportData, TopPage } from './gather.js';

/** The Content-Security-Policy of the page: nothing may load, inline styles only. */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
/** Keywords listed in the header; a learned topic can have thousands. */
const MAX_KEYWORDS = 200;

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;color:#222;margin:0 auto;max-width:980px;padding:16px 24px 48px}
h1{font-size:1.6em;margin:.4em 0}h2{font-size:1.2em;margin:1.6em 0 .4em;border-bottom:1px solid #ddd;padding-bottom:4px}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}dl.meta dt{color:#555}dl.meta dd{margin:0}
ul.kw{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:4px 12px}ul.kw span{color:#777}
table{border-collapse:collapse;margin:.4em 0}th,td{padding:3px 10px;text-align:left;vertical-align:top;border-bottom:1px solid #eee}
th{color:#555;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}.u{color:#777;font-size:.9em;word-break:break-all}
table.top td.t{max-width:520px}table.top a{color:#0b57a4;text-decoration:none}table.top a:hover{text-decoration:underline}
.states{display:flex;gap:10px;flex-wrap:wrap;margin:.6em 0}.states div{border:1px solid #ddd;border-radius:4px;padding:4px 12px;min-width:90px}
.states b{display:block;font-size:1.3em;font-variant-numeric:tabular-nums}
svg.chart{max-width:100%;height:auto;display:block}svg text{font-size:12px;fill:#333}svg text.label{fill:#555}
svg .grid{stroke:#e6e6e6}svg .axis{stroke:#888}svg .line{fill:none;stroke-width:2}svg .marker{stroke:#333;stroke-width:1.5;stroke-dasharray:6 4}
p.empty{color:#777;font-style:italic;border:1px dashed #ccc;padding:24px;text-align:center}p.note{color:#666;font-size:.9em;margin:.3em 0}
footer{margin-top:3em;color:#888;font-size:.85em}
`;

const num = (n: number) => `<td class="n">${formatCount(n)}</td>`;

function header(d: ReportData, title: string): string {
  const t = d.topic;
  const rows: [string, string][] = [
    ['Topic', t.name === null ? '<i>not recorded</i>' : e(t.name)],
    ['Threshold', t.threshold === null ? '<i>not recorded</i>' : e(String(t.threshold))],
  ];
  if (t.keywords.length > 0) {
    const items = t.keywords
      .slice(0, MAX_KEYWORDS)
      .map(([w, weight]) => `<li>${e(w)} <span>${e(String(+weight.toPrecision(4)))}</span></li>`);
    const more = t.keywords.length - MAX_KEYWORDS;
    if (more > 0) items.push(`<li><i>… and ${formatCount(more)} more</i></li>`);
    rows.push([`Keywords (${t.keywords.length})`, `<ul class="kw">${items.join('')}</ul>`]);
  } else {
    rows.push(['Keywords', '<i>not recorded</i>']);
  }
  if (d.storePath !== null) rows.push(['Store', e(d.storePath)]);
  rows.push(['Generated', e(formatTime(d.generatedAt))]);
  const dl = rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${v}</dd>`).join('');
  return `<header><h1>${e(title)}</h1><dl class="meta">${dl}</dl></header>`;
}

function statistics(d: ReportData): string {
  const s = d.stats;
  const dur = (ms: number | null) => (ms === null ? '–' : formatDuration(ms));
  const timeNote =
    s.timeSource === 'runs'
      ? 'first run start → last run end'
      : s.timeSource === 'history'
        ? 'first → last fetch (no run records)'
        : '';
  const rows: [string, string, string][] = [
    ['Docs fetched', num(s.fetched), 'fetch outcomes recorded'],
    ['Failed', num(s.failed), 'state error'],
    ['Rejected', num(s.rejected), 'state discard: below the threshold, links not followed'],
    ['Kept', num(s.counts.complete), 'state complete'],
    ['Discovered', num(s.discovered), `URLs found, ${formatCount(s.seeds)} seeds included`],
    ['Dropped', num(s.dropped), 'waiting URLs trimmed to bound the frontier'],
    [
      'Bytes',
      `<td class="n">${e(formatBytes(s.bytes))}</td>`,
      `${formatCount(s.bytes)} bytes of bodies`,
    ],
    ['Total time', `<td class="n">${dur(s.totalTimeMs)}</td>`, timeNote],
    [
      'Crawl time',
      `<td class="n">${dur(s.crawlTimeMs)}</td>`,
      s.timeSource === 'runs' ? 'sum of the runs' : timeNote,
    ],
    [
      'Harvest rate',
      `<td class="n">${formatPercent(s.harvestRate)}</td>`,
      'complete / (complete + discard)',
    ],
    [
      'Pages per second',
      `<td class="n">${s.pagesPerSec === null ? '–' : s.pagesPerSec.toFixed(2)}</td>`,
      'docs fetched / crawl time',
    ],
    ['Started', `<td>${formatTime(s.startedAt)}</td>`, ''],
    ['Ended', `<td>${formatTime(s.endedAt)}</td>`, ''],
  ];
  const table = rows
    .map(([k, v, note]) => `<tr><th>${k}</th>${v}<td class="u">${e(note)}</td></tr>`)
    .join('');
  const c = s.counts;
  const states = (['waiting', 'processing', 'complete', 'discard', 'error'] as const)
    .map((k) => `<div><b>${formatCount(c[k])}</b>${k}</div>`)
    .join('');
  return `<section id="stats"><h2>Statistics</h2><table class="stats">${table}</table><h3>URLs per state</h3><div class="states">${states}</div>${runs(d)}</section>`;
}

function runs(d: ReportData): string {
  if (d.runs.length === 0) return '<p class="note">No run records in the store.</p>';
  const rows = d.runs.map(
    (r, i) =>
      `<tr><td class="n">${i + 1}</td><td>${formatTime(r.startedAt)}</td><td>${formatTime(r.endedAt)}</td><td class="n">${formatDuration(r.durationMs)}</td>${num(r.fetched)}<td>${e(r.strategy ?? '–')}</td><td>${e(r.outcome)}</td></tr>`,
  );
  return `<h3>Runs (${d.runs.length})</h3><table class="runs"><tr><th>#</th><th>started</th><th>ended</th><th>duration</th><th>fetched</th><th>strategy</th><th>stop reason</th></tr>${rows.join('')}</table>`;
}

/** A relevance bar (SVG, so that it prints) followed by the value. */
function relevanceBar(p: TopPage): string {
  const w = Math.round(Math.min(1, Math.max(0, p.relevance)) * 100);
  const color = p.state === 'complete' ? COLORS.complete : COLORS.discard;
  return `<svg class="bar" width="100" height="10" viewBox="0 0 100 10" aria-hidden="true"><rect width="100" height="10" fill="#eee"/><rect width="${w}" height="10" fill="${color}"/></svg> ${p.relevance.toFixed(3)}`;
}

function topPages(d: ReportData, limit: number): string {
  const head = `<h2>Top pages by relevance</h2>`;
  if (limit === 0)
    return `<section id="top">${head}<p class="note">Not listed (top 0).</p></section>`;
  if (d.topPages.length === 0)
    return `<section id="top">${head}<p class="empty">${NO_PAGES}</p></section>`;
  const rows = d.topPages.map((p, i) => {
    const text = e(clip(p.title?.trim() || displayUrl(p.url), 120));
    const href = safeHref(p.url);
    const link = href
      ? `<a href="${e(href)}" rel="noopener noreferrer nofollow">${text}</a>`
      : text;
    return `<tr><td class="n">${i + 1}</td><td class="t">${link}<div class="u">${e(clip(displayUrl(p.url), 160))}</div></td><td>${relevanceBar(p)}</td><td>${p.state}</td><td class="n">${p.depth}</td><td>${formatTime(p.fetchedAt)}</td></tr>`;
  });
  return `<section id="top">${head}<p class="note">The ${d.topPages.length} most relevant fetched pages (complete in green, discard in orange).</p><table class="top"><tr><th>#</th><th>title</th><th>relevance</th><th>state</th><th>depth</th><th>fetched at</th></tr>${rows.join('')}</table></section>`;
}

function hosts(d: ReportData): string {
  const list = d.hosts;
  const table =
    list.length === 0
      ? ''
      : `<table class="hosts"><tr><th>host</th><th>discovered</th><th>fetched</th><th>complete</th><th>discard</th><th>error</th><th>bytes</th></tr>${list
          .map(
            (h) =>
              `<tr><td>${e(displayHost(h.host))}</td>${num(h.discovered)}${num(h.fetched)}${num(h.complete)}${num(h.discard)}${num(h.error)}<td class="n">${e(formatBytes(h.bytes))}</td></tr>`,
          )
          .join('')}</table>`;
  return `<section id="hosts"><h2>Top hosts</h2>${hostsChart(d)}${table}</section>`;
}

function section(id: string, title: string, chart: string, note: string): string {
  return `<section id="${id}"><h2>${e(title)}</h2>${chart}<p class="note">${note}</p></section>`;
}

/** The whole report page. */
export function renderReport(d: ReportData, o: { title: string; topPages: number }): string {
  const body = [
    header(d, o.title),
    statistics(d),
    section(
      'harvest',
      'Harvest rate',
      harvestChart(d),
      `Share of fetched pages kept (complete) among pages fetched so far, over the whole crawl and over the last ${d.harvest.window} pages. Failed fetches are not pages and are left out.`,
    ),
    section(
      'relevance',
      'Relevance of fetched pages',
      relevanceChart(d),
      'Pages per relevance bin; a bin includes its lower edge, so a page exactly at the threshold counts in the bin the threshold opens.',
    ),
    section(
      'states',
      'URL states over the crawl',
      statesChart(d),
      d.timeline.axis === 'time'
        ? 'Cumulative outcomes by fetch time. Waiting is approximate: URLs discovered by then minus URLs fetched by then; URLs trimmed from a full frontier are no longer known and are not counted.'
        : 'Cumulative outcomes by fetch order (the crawl has long idle gaps between runs, or took no measurable time). Waiting is approximate: URLs discovered by then minus URLs fetched by then; URLs trimmed from a full frontier are not counted.',
    ),
    topPages(d, o.topPages),
    hosts(d),
    `<footer>Generated by focuscrawl on ${e(formatTime(d.generatedAt))}. Self-contained: this file loads nothing from the network.</footer>`,
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(o.title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}
