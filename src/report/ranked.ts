// The report's section of the final ranking: the kept pages with the highest P
// (DESIGN 1.1), their relevance and PageRank side by side. Pure.
import { formatCount } from '../util/index.js';
import { escapeHtml as e, formatTime, pageCell } from './format.js';
import type { ReportData } from './gather.js';

const f = (x: number | null) => (x === null ? '–' : x.toFixed(3));

export function rankedSection(d: ReportData, limit: number): string {
  const head = '<h2>Top pages by final score P</h2>';
  const r = d.ranked.ranking;
  if (r === null) {
    return `<section id="ranked">${head}<p class="note">Not ranked yet: run <code>focuscrawl rank --store DIR</code> (a crawl ranks its pages when a run ends).</p></section>`;
  }
  const by = r.algorithm === 'hits' ? 'HITS authority' : `PageRank (d = ${r.damping})`;
  const note = `P = ${r.w1}·relevance + ${r.w2}·PR, where PR is the ${by} of the page over the crawl's link graph (${formatCount(r.nodes)} URLs, ${formatCount(r.edges)} links), scaled to [0, 1]; ranked ${e(formatTime(r.at))}.`;
  if (limit === 0 || d.ranked.pages.length === 0) {
    return `<section id="ranked">${head}<p class="note">${note}</p></section>`;
  }
  const rows = d.ranked.pages.map((p, i) => {
    return `<tr><td class="n">${i + 1}</td>${pageCell(p)}<td class="n"><b>${f(p.score)}</b></td><td class="n">${f(p.relevance)}</td><td class="n">${f(p.pageRank)}</td></tr>`;
  });
  return `<section id="ranked">${head}<p class="note">${note}</p><table class="top"><tr><th>#</th><th>title</th><th>P</th><th>relevance</th><th>PR</th></tr>${rows.join('')}</table></section>`;
}
