import {
  META_SITE_FILTER,
  readStoreSiteModel,
  type SiteFilterStats,
  storeRequestsByPattern,
} from '../../crawl/index.js';
import { CliUsageError } from '../../errors/index.js';
import { formatStatus, gatherStatus } from '../../export/index.js';
import type { RequestsByPattern } from '../../sitemodel/index.js';
import { connectStore, type Store, storeDirOf } from '../../store/index.js';
import { formatPercent } from '../../util/index.js';
import { META_PLAN, META_WATCH } from '../../watch/index.js';
import { bool, type FlagSpec, int, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { type FetchStats, FetchTally, fetchStatsRows } from '../run-stats.js';
import { formatWorkers, gatherWorkers } from '../workers.js';
import { formatFieldStats } from './fields-text.js';

const HELP = `Usage: focuscrawl status --store DIR|URL [--json] [--top-hosts N] [--top-pages N]

Shows a crawl store's statistics (DESIGN 1.1's table): documents fetched, failed
and rejected, URLs discovered and dropped, bytes, total and crawl time, pages per
second, URLs per state, harvest rate, duplicates, the topic, the runs, the last
ranking with the best pages by P (relevance and PageRank side by side) and the busiest hosts;
and, when the crawl adapts them, the threshold (kind, initial and current value,
frozen, changes and the last few) and the topic vector's changes (last drift);
and, once the store is watched (focuscrawl watch), the revisits: the budget and the
requests per second spent over the last hour, revisits beside new fetches, what they
found (changed, unchanged, gone, failed), the plan's expected freshness and change
rates λ̂, and what is due next;
and, when the crawl ran with a site model (--site-model), the links it followed and
refused, and the requests per URL pattern with the share on valid patterns;
and, when fields were extracted (crawl --extract, focuscrawl extract), the pages
each rule set matched and each field's fill rate;
and the fetch statistics over every run: outcomes by HTTP status, failures by error
code, retries (where attempts are recorded) and the hosts failing most.
Reads the store only, so it can run while a crawl works on it.

  --store DIR        the crawl store
  --top-hosts N      hosts listed (default 10; 0 for none)
  --top-pages N      pages listed by the final score P (default 10; 0 for none)
  --json             print every figure as one JSON object (times in ms since the epoch)`;

const flags: FlagSpec = {
  store: { type: 'string' },
  json: { type: 'boolean' },
  'top-hosts': { type: 'string' },
  'top-pages': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export async function statusCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('status', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (p.positionals.length > 0) {
    throw new CliUsageError(
      `focuscrawl status: unexpected argument "${p.positionals[0]}" (give the store with --store DIR)`,
    );
  }
  const dir = str(p, 'store');
  if (dir === undefined) {
    throw new CliUsageError(
      'focuscrawl status: --store is required (see focuscrawl status --help)',
    );
  }
  const topHosts = int(p, 'top-hosts', 'status') ?? 10;
  const topPages = int(p, 'top-pages', 'status') ?? 10;
  const store = await connectStore(dir, { readonly: true });
  try {
    const revisitMeta = {
      watch: await store.getMeta(META_WATCH),
      plan: await store.getMeta(META_PLAN),
    };
    const data = await gatherStatus(store, { topHosts, topPages, revisitMeta });
    const siteModel = (await store.getMeta(META_SITE_FILTER)) as SiteFilterStats | undefined;
    const model = await readStoreSiteModel(store, storeDirOf(dir) ?? null);
    const requests = model === null ? undefined : await storeRequestsByPattern(store, model);
    const fields = await store.fieldStats();
    const fetchStats = await gatherFetchStats(store);
    const workers = await gatherWorkers(store);
    if (bool(p, 'json'))
      io.out(
        JSON.stringify(
          {
            store: dir,
            ...data,
            ...(siteModel ? { siteModel } : {}),
            ...(requests ? { siteModelRequests: requests } : {}),
            ...(fields.length > 0 ? { fields } : {}),
            fetchStats,
            ...workers,
          },
          null,
          2,
        ),
      );
    else {
      const section = [
        ...(fetchStats.fetches + fetchStats.redirects > 0 ? [formatFetchStats(fetchStats)] : []),
        ...(siteModel ? [formatSiteFilter(siteModel)] : []),
        ...(requests ? [formatRequests(requests, siteModel === undefined)] : []),
        ...(fields.length > 0 ? [formatFieldStats(fields)] : []),
        ...(workers.workers.length > 0 || workers.database ? [formatWorkers(workers)] : []),
      ];
      io.out(
        `Store           ${dir}\n${formatStatus(data)}${section.length > 0 ? `\n${section.join('\n')}` : ''}`,
      );
    }
    return 0;
  } finally {
    await store.close();
  }
}

/** The fetch statistics of the store's history (every run). */
export async function gatherFetchStats(store: Store): Promise<FetchStats> {
  const tally = new FetchTally();
  for await (const r of store.history()) {
    // Attempts are recorded by stores of this version (absent in older rows).
    const { attempt, retryAt } = r as { attempt?: unknown; retryAt?: unknown };
    tally.add({
      ...r,
      attempt: typeof attempt === 'number' ? attempt : undefined,
      retryAt: typeof retryAt === 'number' ? retryAt : null,
      fetchMs: r.fetchMs ?? undefined,
    });
  }
  return tally.result();
}

/** The `Fetch stats` section: by status, by error, retries, failing hosts. */
export function formatFetchStats(s: FetchStats): string {
  const rows = fetchStatsRows(s, { top: 8 });
  const width = Math.max(...rows.map(([k]) => k.length));
  return ['', 'Fetch stats', ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join('\n');
}

/** The site model's link filter of the last run (`sitemodel.filter`). */
function formatSiteFilter(f: SiteFilterStats): string {
  const refused = Object.entries(f.refused).sort((a, b) => b[1] - a[1]);
  const total = refused.reduce((t, [, n]) => t + n, 0);
  const lines = [
    `Site model      ${f.valid} links followed (valid patterns), ${total} refused, ${f.unknown} matching no pattern`,
  ];
  for (const [pattern, n] of refused.slice(0, 5))
    lines.push(`  refused ${String(n).padStart(6)}  ${pattern}`);
  if (f.unknownExamples.length > 0)
    lines.push(`  unknown, e.g. ${f.unknownExamples.slice(0, 3).join(', ')}`);
  return lines.join('\n');
}

/** Patterns listed under the requests line. */
const TOP_PATTERNS = 5;

/** The requests of the crawl by the site model's patterns (`first`: the section's first line). */
function formatRequests(r: RequestsByPattern, first: boolean): string {
  const extra = [
    ...(r.unknown > 0 ? [`${r.unknown} matching no pattern`] : []),
    ...(r.offSite > 0 ? [`${r.offSite} on other hosts`] : []),
  ];
  const line = `requests  ${r.total} on the model's hosts, ${formatPercent(r.validShare)} on valid patterns${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
  const lines = [first ? `Site model      ${line}` : `  ${line}`];
  for (const row of r.rows.slice(0, TOP_PATTERNS))
    lines.push(`    ${String(row.requests).padStart(6)}  ${row.verdict.padEnd(7)}  ${row.pattern}`);
  return lines.join('\n');
}
