import { CliUsageError } from '../../errors/index.js';
import { loadRules, NO_RULE_SET, type PageExtraction } from '../../extract/index.js';
import { bodyTooLarge } from '../../fetch/index.js';
import { type InspectReport, inspectUrl } from '../../inspect/index.js';
import { loadTopicFile } from '../../relevance/index.js';
import { canonicalizeUrlOrThrow } from '../../url/index.js';
import { bool, type FlagSpec, int, parseFlags, str } from '../args.js';
import { fetcherOptionsFromFlags, fetchFlags, fetchFlagsHelp } from '../fetch-flags.js';
import { cliFlagNames, inFlagWords } from '../flag-words.js';
import type { Io } from '../index.js';

const HELP = `Usage: focuscrawl inspect URL [--topic FILE] [--threshold R] [--rules FILE] [--json] [--links N] [fetcher options]

Fetches one page as the crawler would and shows the status, redirects, the robots.txt
verdict, the charset and how it was found, the title, a text excerpt, the links with
their context and, with --topic, the keyword relevance (DESIGN 1.1).
A single inspect is polite by construction (one page, robots.txt obeyed).

  --topic FILE       topic file (JSON: { "keywords": { "word": weight, ... } })
  --threshold R      keep/discard threshold for the verdict (default: the topic's, else 0.1)
  --links N          links to list in text output (default 20; --json lists all)
  --rules FILE       field extraction rules (docs/extract.md): what each field got,
                     and for a field that got nothing, why
  --json             print the whole report as JSON

${fetchFlagsHelp}`;

const flags: FlagSpec = {
  ...fetchFlags,
  topic: { type: 'string' },
  threshold: { type: 'string' },
  rules: { type: 'string' },
  links: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export async function inspectCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('inspect', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const raw = p.positionals[0];
  if (!raw || p.positionals.length > 1) {
    throw new CliUsageError(
      'focuscrawl inspect: give exactly one URL (see focuscrawl inspect --help)',
    );
  }
  const url = canonicalizeUrlOrThrow(raw);
  const topicFile = str(p, 'topic');
  const thresholdRaw = str(p, 'threshold');
  const threshold = thresholdRaw === undefined ? undefined : Number(thresholdRaw);
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) {
    throw new CliUsageError(
      `focuscrawl inspect: --threshold must be a number in [0, 1], got "${thresholdRaw}"`,
    );
  }
  const rulesFile = str(p, 'rules');
  const rules = rulesFile === undefined ? undefined : await loadRules(rulesFile);
  const report = await inspectUrl(url, {
    ...(rules ? { rules } : {}),
    fetcher: fetcherOptionsFromFlags(p, 'inspect'),
    ...(topicFile ? { topic: loadTopicFile(topicFile) } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
  });
  if (bool(p, 'json')) io.out(JSON.stringify(report, null, 2));
  else {
    // The fetcher's words name its options (allowPrivateAddresses); a user types flags.
    const shown = report.error
      ? {
          ...report,
          error: {
            ...report.error,
            message: inFlagWords(report.error.message, await cliFlagNames()),
          },
        }
      : report;
    io.out(formatReport(shown, int(p, 'links', 'inspect') ?? 20));
  }
  // A body cut at the byte cap is an error as the crawl records it.
  return report.error || report.fetch?.truncated ? 1 : 0;
}

const CHARSET_SOURCE: Record<string, string> = {
  bom: 'from the byte-order mark',
  header: 'from the HTTP Content-Type header',
  meta: 'from <meta> in the page',
  detected: 'not declared: detected from the bytes',
  default: 'not declared, not detectable: the default',
};

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function formatReport(r: InspectReport, maxLinks: number): string {
  const lines: string[] = [];
  const row = (k: string, v: string) => lines.push(`${k.padEnd(12)} ${v}`);
  row('URL', r.url);
  const rb = r.robots;
  const rule = rb.rule
    ? ` by "${rb.rule.directive}: ${rb.rule.pattern}" (line ${rb.rule.line})`
    : '';
  const group = rb.group ? ` for user-agent ${rb.group}` : '';
  const delay = rb.crawlDelayMs !== undefined ? `, crawl-delay ${rb.crawlDelayMs} ms` : '';
  row(
    'Robots',
    `${rb.allowed ? 'allowed' : 'DISALLOWED'}${rule}${group}${delay} [${rb.robotsUrl}: ${rb.source}${rb.status ? ` ${rb.status}` : ''}]`,
  );
  if (r.error) {
    row('Error', `${r.error.code}: ${r.error.message}`);
    return lines.join('\n');
  }
  const f = r.fetch;
  if (!f) return lines.join('\n');
  for (const h of f.redirects) row('Redirect', `${h.status} ${h.url} → ${h.location}`);
  row(
    'Status',
    `${f.status} ${f.contentType ?? '(no content-type)'}, ${f.bytes} bytes${f.headers['content-encoding'] ? ` (${f.bytesOnWire} on the wire, ${f.headers['content-encoding']})` : ''}${f.truncated ? ', TRUNCATED at the byte cap' : ''}, ${f.attempts} attempt(s), ${Math.round(f.timings.totalMs)} ms`,
  );
  if (f.finalUrl !== r.url) row('Final URL', f.finalUrl);
  const cut = bodyTooLarge(f);
  if (cut !== undefined) row('Error', `${cut.code}: ${cut.message} (a crawl records it so)`);
  row('Content', r.content ?? 'unknown');
  if (r.charset)
    row('Charset', `${r.charset.name} (${CHARSET_SOURCE[r.charset.source] ?? r.charset.source})`);
  const pg = r.page;
  if (pg) {
    row('Title', pg.title || '(none)');
    if (pg.lang) row('Language', pg.lang);
    if (pg.canonical) row('Canonical', pg.canonical);
    row(
      'Meta robots',
      `${pg.metaRobots.noindex ? 'noindex' : 'index'}, ${pg.metaRobots.nofollow ? 'nofollow' : 'follow'}`,
    );
    row('Text', `${pg.textChars} characters: ${clip(pg.excerpt.replace(/\s+/g, ' '), 300)}`);
    row('Links', String(pg.links.length));
    for (const l of pg.links.slice(0, maxLinks)) {
      lines.push(`  ${l.nofollow ? '[nofollow] ' : ''}${l.url}`);
      lines.push(`      «${clip(l.anchor, 60)}»  …${clip(l.context.replace(/\s+/g, ' '), 100)}…`);
    }
    if (pg.links.length > maxLinks)
      lines.push(`  … ${pg.links.length - maxLinks} more (--links N or --json)`);
  }
  const rel = r.relevance;
  if (rel) {
    const why = rel.relevant && rel.verdict === 'discard' ? ', relevant but noindex' : '';
    row('Relevance', `${rel.score.toFixed(4)} (threshold ${rel.threshold} → ${rel.verdict}${why})`);
    const present = rel.keywords.filter((k) => k.count > 0);
    for (const k of present.slice(0, 15))
      lines.push(`  ${k.word.padEnd(16)} weight ${k.weight}  count ${k.count}`);
    if (present.length === 0) lines.push('  (no topic keyword occurs on the page)');
  }
  if (r.fields) lines.push(...formatExtraction(r.fields));
  return lines.join('\n');
}

/** What each field of each matching rule set got, and why a field got nothing. */
function formatExtraction(e: PageExtraction): string[] {
  if (e.matched.length === 0) return [`${'Fields'.padEnd(12)} none: ${e.reason ?? NO_RULE_SET}`];
  const lines: string[] = [];
  for (const rs of e.matched) {
    const missing = rs.missingRequired.length;
    lines.push(
      `${'Fields'.padEnd(12)} rule set "${rs.ruleSet}"${missing > 0 ? `: ${missing} required field${missing === 1 ? '' : 's'} missing (${rs.missingRequired.join(', ')})` : ''}`,
    );
    for (const f of rs.fields) {
      const label = `  ${f.name}${f.required ? ' *' : ''}`.padEnd(18);
      if (f.values.length === 0) lines.push(`${label} —  ${f.reason ?? 'no value'}`);
      for (const v of f.values) lines.push(`${label} ${clip(v.value.replace(/\s+/g, ' '), 120)}`);
    }
  }
  return lines;
}
