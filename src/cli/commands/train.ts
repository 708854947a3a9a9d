import { CliUsageError } from '../../errors/index.js';
import { trainFromSources } from '../../learn/index.js';
import {
  BANDWIDTH_RULES,
  type BandwidthRule,
  type DensityKind,
  type TrainingMetrics,
  writeLinkModelFile,
} from '../../relevance/index.js';
import { bool, type FlagSpec, int, parseFlags, str, strs } from '../args.js';
import { fetcherOptionsFromFlags, fetchFlags, fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { checkOutFile } from '../out-file.js';
import { withFlag } from '../system-errors.js';
import { expandListFlags } from './topic.js';

const HELP = `Usage: focuscrawl train --positive SRC... --negative SRC... --out MODEL.json [options]

Trains the naive Bayes link classifier of DESIGN 1.4 from example pages: each page's
title, text and URL become improved TF-IDF features over a vocabulary chosen by
information gain, and the class densities are normal or Gaussian-kernel estimates.
Prints cross-validated accuracy, precision, recall and F1, and writes the model for
\`crawl --model bayes --model-file MODEL.json\`. See docs/bayes.md.

A source SRC is an http(s) URL, a folder (its .html, .htm and .txt files), an .html
file, a labels file (JSON from \`focuscrawl testweb labels\`: its relevant URLs;
FILE#TOPIC picks one topic), or any other file listing URLs one per line. Several may
follow one flag: --negative a.txt b/ http://x.test/1.html

  --positive SRC...      on-topic examples (required)
  --negative SRC...      off-topic examples (required)
  --out FILE             where to write the model (required)
  --density KIND         normal | kernel (default kernel)
  --bandwidth RULE       kernel bandwidth σ: inverse-sqrt-n (1/√n, default) |
                         inverse-n (1/n, as the paper writes)
  --max-terms N          vocabulary size at most (default 100)
  --min-docs N           a term must occur in N examples (default 2)
  --context-chars N      characters around a link that crawls read with this model
                         (default 80)
  --folds K              cross-validation folds (default 5)
  --seed N               seed of the folds' shuffle (default 1)

${fetchFlagsHelp}`;

const flags: FlagSpec = {
  ...fetchFlags,
  positive: { type: 'string', multiple: true },
  negative: { type: 'string', multiple: true },
  out: { type: 'string' },
  density: { type: 'string' },
  bandwidth: { type: 'string' },
  'max-terms': { type: 'string' },
  'min-docs': { type: 'string' },
  'context-chars': { type: 'string' },
  folds: { type: 'string' },
  seed: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The cross-validation scores as a small table. */
export function formatMetrics(m: TrainingMetrics): string {
  const rows = [
    ['accuracy', pct(m.accuracy)],
    ['precision', pct(m.precision)],
    ['recall', pct(m.recall)],
    ['F1', pct(m.f1)],
  ];
  const how =
    m.method === 'cross-validation'
      ? `${m.folds}-fold cross-validation over ${m.examples} examples`
      : `${m.examples} examples seen after training`;
  return [
    `  metric      value   (${how})`,
    ...rows.map(([k, v]) => `  ${k?.padEnd(10)} ${v?.padStart(6)}`),
  ].join('\n');
}

function positiveInt(p: ReturnType<typeof parseFlags>, name: string): number | undefined {
  const v = int(p, name, 'train');
  if (v === 0) throw new CliUsageError(`focuscrawl train: --${name} must be at least 1`);
  return v;
}

export async function trainCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('train', expandListFlags(argv, flags), flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (p.positionals.length > 0) {
    throw new CliUsageError(
      `focuscrawl train: unexpected argument "${p.positionals[0]}" (sources follow --positive or --negative)`,
    );
  }
  const positive = strs(p, 'positive');
  const negative = strs(p, 'negative');
  const out = str(p, 'out');
  for (const [flag, given] of [
    ['--positive SRC...', positive.length > 0],
    ['--negative SRC...', negative.length > 0],
    ['--out MODEL.json', out !== undefined],
  ] as const) {
    if (!given)
      throw new CliUsageError(`focuscrawl train: give ${flag} (see focuscrawl train --help)`);
  }
  checkOutFile(out as string, 'train');
  const density = str(p, 'density');
  if (density !== undefined && density !== 'normal' && density !== 'kernel') {
    throw new CliUsageError(
      `focuscrawl train: --density must be normal or kernel, got "${density}"`,
    );
  }
  const bandwidth = str(p, 'bandwidth');
  if (bandwidth !== undefined && !Object.hasOwn(BANDWIDTH_RULES, bandwidth)) {
    throw new CliUsageError(
      `focuscrawl train: --bandwidth must be one of ${Object.keys(BANDWIDTH_RULES).join(', ')}, got "${bandwidth}"`,
    );
  }
  const folds = int(p, 'folds', 'train');
  if (folds !== undefined && folds < 2) {
    throw new CliUsageError('focuscrawl train: --folds must be at least 2');
  }
  const maxTerms = positiveInt(p, 'max-terms');
  const minDocs = positiveInt(p, 'min-docs');
  const contextChars = int(p, 'context-chars', 'train');
  const seed = int(p, 'seed', 'train');
  const r = await trainFromSources({
    positive,
    negative,
    ...(density !== undefined ? { density: density as DensityKind } : {}),
    ...(bandwidth !== undefined ? { bandwidth: bandwidth as BandwidthRule } : {}),
    ...(maxTerms !== undefined ? { maxTerms } : {}),
    ...(minDocs !== undefined ? { minDocs } : {}),
    ...(contextChars !== undefined ? { contextChars } : {}),
    ...(folds !== undefined ? { folds } : {}),
    ...(seed !== undefined ? { seed } : {}),
    fetcher: fetcherOptionsFromFlags(p, 'train'),
    onSkip: (s) => io.err(`skipped ${s.source}: ${s.reason}`),
  });
  await withFlag('--out', out as string, () => writeLinkModelFile(out as string, r.model));
  const c = r.model.json.classifier;
  const sigma =
    c.density === 'kernel'
      ? `, bandwidth ${c.bandwidth} (σ+ ${c.sigma.positive.toPrecision(3)}, σ− ${c.sigma.negative.toPrecision(3)})`
      : '';
  io.out(
    [
      `Trained a ${c.density}-density naive Bayes link model${sigma} on ${r.positive.length} positive and ${r.negative.length} negative examples; ${c.vocabulary.length} terms.`,
      formatMetrics(r.metrics),
      `Wrote ${out}.`,
    ].join('\n'),
  );
  return 0;
}
