import { CliUsageError } from '../../errors/index.js';
import { createFetcher } from '../../fetch/index.js';
import {
  collectSample,
  createDecider,
  learnSiteModel,
  loadSiteModel,
  SAMPLE_PAGES,
  SAMPLE_PER_PATTERN,
  SAMPLE_SETTLE_AT,
  type SiteModel,
  writeSiteModel,
} from '../../sitemodel/index.js';
import { canonicalizeUrlOrThrow, createScopeFilter } from '../../url/index.js';
import { bool, type FlagSpec, int, parseFlags, str, strs } from '../args.js';
import { fetcherOptionsFromFlags, fetchFlags, fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { checkOutFile } from '../out-file.js';
import { withFlag } from '../system-errors.js';

const HELP = `Usage: focuscrawl site-model learn --seeds URL... --out FILE [--sample N] [--per-pattern N] [--settle-at N] [fetcher options]
       focuscrawl site-model show FILE
       focuscrawl site-model test FILE URL...

A site model (docs/site-model.md, DESIGN 1.3) says which URL patterns of a site carry
content: learnt from a sample of its pages, it lets crawl and watch (--site-model FILE)
follow only the valid patterns, skipping duplicate views and pages without content.

learn   fetches a sample of the seeds' site (the URL pattern sampled least first,
        politely: robots.txt, per-host delays), clusters its pages by layout, splits
        each cluster by content and URL pattern, and writes the model (JSON a person
        can read and edit), then shows it
          --seeds URL...   where the sample starts (the site: the seeds' hosts)
          --sample N       pages to fetch for the sample at most (default ${SAMPLE_PAGES})
          --per-pattern N  stop once every URL pattern found has N pages sampled
                           (default ${SAMPLE_PER_PATTERN}; 0: fetch all --sample pages)
          --settle-at N    take no more of a URL pattern once it has N pages sampled
                           and they repeat other pages (default ${SAMPLE_SETTLE_AT}; 0: never)
          --out FILE       where to write the model (required)
show    prints a model as a table: clusters, kinds, decisions, patterns
test    says which pattern of a model takes each URL, and why

${fetchFlagsHelp}`;

const flags: FlagSpec = {
  ...fetchFlags,
  seeds: { type: 'string', multiple: true },
  sample: { type: 'string' },
  'per-pattern': { type: 'string' },
  'settle-at': { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const usage = (m: string) => new CliUsageError(`focuscrawl site-model: ${m}`);

export async function siteModelCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(HELP);
    return sub === undefined ? 2 : 0;
  }
  const p = parseFlags(`site-model ${sub}`, rest, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (sub === 'learn') return learn(p, io);
  if (sub === 'show') {
    const [file, ...more] = p.positionals;
    if (file === undefined || more.length > 0) throw usage('show takes one site model file');
    io.out(formatModel(await loadSiteModel(file)));
    return 0;
  }
  if (sub === 'test') {
    const [file, ...urls] = p.positionals;
    if (file === undefined || urls.length === 0)
      throw usage('test takes a site model file and at least one URL');
    const decide = createDecider(await loadSiteModel(file));
    let refused = 0;
    for (const u of urls) {
      const d = decide(u);
      if (d.verdict !== 'valid') refused++;
      io.out(
        `${d.verdict.padEnd(8)} ${u}\n         ${d.pattern === undefined ? '' : `pattern ${d.pattern} (cluster ${d.cluster}, ${d.kind}, ${d.role}): `}${d.reason}`,
      );
    }
    return refused === 0 ? 0 : 1;
  }
  throw usage(`unknown subcommand "${sub}" (learn, show or test)`);
}

async function learn(p: ReturnType<typeof parseFlags>, io: Io): Promise<number> {
  const seeds = [...(strs(p, 'seeds') ?? []), ...p.positionals].map((s) => {
    try {
      return canonicalizeUrlOrThrow(s);
    } catch {
      throw usage(`--seeds: ${JSON.stringify(s)} is not an http(s) URL`);
    }
  });
  if (seeds.length === 0) throw usage('learn needs --seeds URL...');
  const out = str(p, 'out');
  if (out === undefined) throw usage('learn needs --out FILE');
  checkOutFile(out, 'site-model learn');
  const pages = int(p, 'sample', 'site-model') ?? SAMPLE_PAGES;
  if (!(pages >= 1)) throw usage(`--sample must be a whole number ≥ 1, got ${str(p, 'sample')}`);
  const per = int(p, 'per-pattern', 'site-model') ?? SAMPLE_PER_PATTERN;
  if (!(per >= 0))
    throw usage(`--per-pattern must be a whole number ≥ 0, got ${str(p, 'per-pattern')}`);
  const settleAt = int(p, 'settle-at', 'site-model') ?? SAMPLE_SETTLE_AT;
  const inScope = createScopeFilter({ mode: 'same-host', seeds });
  const fetcher = createFetcher({ ...fetcherOptionsFromFlags(p, 'site-model'), scope: inScope });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  try {
    const sample = await collectSample({
      seeds,
      pages,
      perPattern: per === 0 ? undefined : per,
      settleAt,
      fetcher,
      inScope,
      signal: stop.signal,
      onFetch: (_u, _s, done) => {
        if (done % 50 === 0) io.err(`sample: ${done} of ${pages} pages`);
      },
    });
    io.err(
      `sample: ${sample.requests} requests, ${sample.failed} failed; ${sample.settled.length} URL pattern${sample.settled.length === 1 ? '' : 's'} settled as repeats`,
    );
    const model = learnSiteModel(sample.pages);
    await withFlag('--out', out, () => writeSiteModel(out, model));
    io.out(formatModel(model));
    io.out(`written to ${out}`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    await fetcher.close();
  }
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A model as a table: one line per cluster, its patterns under it. */
export function formatModel(m: SiteModel): string {
  const lines = [
    `site model of ${m.hosts.join(', ')}, learnt ${m.learnedAt} from ${m.sample.pages} pages`,
    `layout threshold ${m.sample.thresholds.layout.value.toFixed(2)} (${m.sample.thresholds.layout.rule}); informativeness threshold ${m.sample.thresholds.informativeness.value.toFixed(4)} (${m.sample.thresholds.informativeness.rule})`,
    '',
    'cluster  kind        decision  inf      pages  dup  patterns',
  ];
  for (const c of m.clusters) {
    lines.push(
      `${String(c.id).padEnd(8)} ${c.kind.padEnd(11)} ${c.decision.padEnd(9)} ${c.informativeness.toFixed(4).padEnd(8)} ${String(c.pages).padStart(5)}  ${String(c.duplicates).padStart(3)}  ${c.patterns.length}`,
    );
    for (const pt of c.patterns) {
      lines.push(
        `           ${pt.role === 'content' ? '+' : '='} ${clip(pt.pattern, 70)} (${pt.pages})${pt.duplicateOf ? ` duplicates ${clip(pt.duplicateOf, 50)}` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
