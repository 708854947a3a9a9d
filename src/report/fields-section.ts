// The report's fields section (docs/extract.md): per rule set of the extraction rules,
// the pages it matched and each field's fill rate. Pure: gathered data in, markup out.
import { formatCount, formatPercent } from '../util/index.js';
import { escapeHtml as e } from './format.js';
import type { ReportData } from './gather.js';

/** The fields section, when the store has extracted fields. */
export function fieldsSection(d: ReportData): string | null {
  if (d.fields.length === 0) return null;
  const sets = d.fields.map((rs) => {
    const rows = rs.fields.map((f) => {
      const share = rs.pages === 0 ? null : f.filled / rs.pages;
      const bar = share === null ? 0 : Math.round(share * 100);
      return `<tr><td><code>${e(f.field)}</code></td><td class="n">${formatCount(f.filled)}</td><td class="n">${formatPercent(share)}</td><td><span class="fill" style="display:inline-block;height:0.7em;width:${bar}px;background:#4c9a2a"></span></td></tr>`;
    });
    return `<h3>Rule set <code>${e(rs.ruleSet)}</code>: ${formatCount(rs.pages)} page${rs.pages === 1 ? '' : 's'} matched</h3><table class="fields"><tr><th>field</th><th>pages with a value</th><th>fill rate</th><th></th></tr>${rows.join('')}</table>`;
  });
  const note =
    'Fields extracted from kept pages by the crawl’s rules (crawl --extract, or focuscrawl extract over the stored bodies). A rule set matched a page when its URL pattern took the page’s URL; a field’s fill rate is the share of those pages where it got a value.';
  return `<section id="fields"><h2>Extracted fields</h2><p class="note">${note}</p>${sets.join('')}</section>`;
}
