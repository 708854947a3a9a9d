// The HTML document around a report-style page: the Content-Security-Policy, the
// inline style sheet and the head, shared by the crawl report, `evaluate` and
// `compare`. Pure.
import { escapeHtml } from './format.js';

/** The Content-Security-Policy of the page: nothing may load, inline styles only. */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

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

/** A whole self-contained HTML document: `body` parts joined by newlines. */
export function htmlDocument(title: string, body: readonly string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}
