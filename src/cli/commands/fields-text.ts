/**
 * The extracted fields as `status` and `extract` print them: per rule set the pages it
 * matched, and per field its fill rate (pages with a value / pages matched).
 */
import type { FieldStats } from '../../store/index.js';
import { formatPercent } from '../../util/index.js';

/** The "Fields" lines; '' when the store has no fields. */
export function formatFieldStats(stats: readonly FieldStats[]): string {
  const lines: string[] = [];
  for (const rs of stats) {
    const head = `${rs.ruleSet}: ${rs.pages} page${rs.pages === 1 ? '' : 's'} matched`;
    lines.push(lines.length === 0 ? `Fields          ${head}` : `                ${head}`);
    const width = Math.max(...rs.fields.map((f) => f.field.length), 5);
    for (const f of rs.fields) {
      const share = rs.pages === 0 ? null : f.filled / rs.pages;
      lines.push(
        `                  ${f.field.padEnd(width)}  ${formatPercent(share).padStart(6)}  (${f.filled})`,
      );
    }
  }
  return lines.join('\n');
}
