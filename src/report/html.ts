// The report page: header, statistics, charts and tables, as one self-contained
// HTML document (inline CSS and SVG, no script, nothing loaded from elsewhere).
// Pure: gathered data in, markup out. Text from the web is always escaped.

import { URL_STATES } from '../store/index.js';
import { formatBytes, formatCount, formatDuration, formatPercent } from '../util/index.js';
import {
  COLORS,
  harvestChart,
  hostsChart,
  NO_PAGES,
  relevanceChart,
  statesChart,
  thresholdChart,
} from './charts.js';
import { fieldsSection } from './fields-section.js';
import { displayHost, escapeHtml as e, formatTime, pageCell } from './format.js';
import type { ReportData, TopPage } from './gather.js';
import { htmlDocument } from './page.js';
import { rankedSection } from './ranked.js';
import { revisitSection } from './revisit-section.js';
import { siteModelSection } from './site-model-section.js';

/** Keywords listed in the header; a learned topic can have thousands. */
const MAX_KEYWORDS = 200;

const num = (n: number) => `<td class="n">${formatCount(n)}</td>`;

function header(d: ReportData, title: string): string {
  const t = d.topic;
  const rows: [string, string][] = [
    ['Topic', t.name === null ? '<i>not recorded</i>' : e(t.name)],
    ['Threshold', thresholdCell(d)],
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

const short = (x: number) => String(+x.toPrecision(4));

/** The threshold: the topic's, or how the crawl moved it when it recorded a history. */
function thresholdCell(d: ReportData): string {
  const h = d.threshold;
  if (h === null) {
    return d.topic.threshold === null ? '<i>not recorded</i>' : e(String(d.topic.threshold));
  }
  const n = h.changes.length;
  if (n === 0) return e(`${short(h.value)} (${h.kind})`);
  const frozen = h.frozen ? ', frozen' : '';
  return e(
    `${short(h.initial)} → ${short(h.value)} (${h.kind}${frozen}, ${formatCount(n)} ${n === 1 ? 'change' : 'changes'})`,
  );
}

/** The threshold chart with a note, when the crawl recorded the threshold's history. */
function thresholdSection(d: ReportData): string | null {
  const chart = thresholdChart(d);
  const h = d.threshold;
  if (chart === null || h === null) return null;
  const how =
    h.kind === 'iterative'
      ? 'The iterative threshold (DESIGN 1.2) moves after each batch until it converges, then stays frozen.'
      : h.kind === 'adaptive'
        ? 'The adaptive threshold (DESIGN 1.5) is multiplied by α, β or γ at intervals, by the pages fetched and kept in the last interval.'
        : 'A fixed threshold does not move.';
  const last = h.changes.slice(-10).reverse();
  const rows = last
    .map(
      (c) =>
        `<tr>${num(c.fetched)}<td class="n">${short(c.from)}</td><td class="n">${short(c.to)}</td><td>${e(c.rule)}</td><td>${formatTime(c.at)}</td></tr>`,
    )
    .join('');
  const table =
    last.length === 0
      ? ''
      : `<h3>Latest changes</h3><table class="threshold"><tr><th>fetched</th><th>from</th><th>to</th><th>rule</th><th>at</th></tr>${rows}</table>`;
  return `<section id="threshold"><h2>Threshold over the crawl</h2>${chart}<p class="note">${e(how)} Each step is a change, at the number of fetch outcomes stored when it happened.</p>${table}</section>`;
}

/** Keywords as `word 0.5, word 0.25`, at most `max` of them. */
function keywordList(words: readonly string[], max: number): string {
  if (words.length === 0) return '–';
  const shown = words.slice(0, max).map((w) => e(w));
  if (words.length > max) shown.push(`<i>+${words.length - max} more</i>`);
  return shown.join(', ');
}

/** The topic-vector changes, when the crawl re-estimated its topic vector. */
function topicSection(d: ReportData): string | null {
  const v = d.topicVector;
  if (v === null) return null;
  const head = '<h2>Topic vector changes</h2>';
  if (v.changes.length === 0) {
    return `<section id="topic">${head}<p class="note">The topic vector has not changed (${formatCount(v.keywords)} keywords).</p></section>`;
  }
  const first = v.total - v.changes.length;
  const rows = v.changes
    .map((c, i) => {
      const top = c.top
        .slice(0, 8)
        .map(([w, weight]) => `${e(w)} <span>${e(short(weight))}</span>`)
        .join(', ');
      return `<tr><td class="n">${first + i + 1}</td>${num(c.fetched)}<td class="n">${c.drift.toFixed(3)}${c.limited ? ' <i>limited</i>' : ''}</td><td>${keywordList(c.added, 10)}</td><td>${keywordList(c.removed, 10)}</td><td>${top || '–'}</td></tr>`;
    })
    .join('');
  const note =
    `${formatCount(v.total)} re-estimations of the topic vector from the relevant pages fetched (DESIGN 1.5)` +
    `${first > 0 ? `; the latest ${v.changes.length} are listed` : ''}; ${formatCount(v.keywords)} keywords now. ` +
    'Drift is 1 − cos(original vector, new vector); <i>limited</i> means the drift limit held the change back.';
  return `<section id="topic">${head}<p class="note">${note}</p><table class="topic"><tr><th>#</th><th>fetched</th><th>drift</th><th>added</th><th>removed</th><th>top keywords</th></tr>${rows}</table></section>`;
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
      'Duplicates',
      `<td class="n">${formatCount(s.duplicates.exact + s.duplicates.near)}</td>`,
      `${formatCount(s.duplicates.exact)} exact, ${formatCount(s.duplicates.near)} near: recorded, not stored twice`,
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
  const states = URL_STATES.map((k) => `<div><b>${formatCount(c[k])}</b>${k}</div>`).join('');
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
    return `<tr><td class="n">${i + 1}</td>${pageCell(p)}<td>${relevanceBar(p)}</td><td>${p.state}</td><td class="n">${p.depth}</td><td>${formatTime(p.fetchedAt)}</td></tr>`;
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
    thresholdSection(d),
    topicSection(d),
    section(
      'states',
      'URL states over the crawl',
      statesChart(d),
      d.timeline.axis === 'time'
        ? 'Cumulative outcomes by fetch time. Waiting is approximate: URLs discovered by then minus URLs fetched by then; URLs trimmed from a full frontier are no longer known and are not counted.'
        : 'Cumulative outcomes by fetch order (the crawl has long idle gaps between runs, or took no measurable time). Waiting is approximate: URLs discovered by then minus URLs fetched by then; URLs trimmed from a full frontier are not counted.',
    ),
    siteModelSection(d),
    fieldsSection(d),
    revisitSection(d),
    rankedSection(d, o.topPages),
    topPages(d, o.topPages),
    hosts(d),
    `<footer>Generated by focuscrawl on ${e(formatTime(d.generatedAt))}. Self-contained: this file loads nothing from the network.</footer>`,
  ];
  return htmlDocument(
    o.title,
    body.filter((x): x is string => x !== null),
  );
}
