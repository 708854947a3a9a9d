import { writeFileSync } from 'node:fs';
import { CliUsageError, LearnError } from '../../errors/index.js';
import { type LearnResult, learnTopic } from '../../learn/index.js';
import { loadTopicFile } from '../../relevance/index.js';
import { bool, type FlagSpec, int, parseFlags, str, strs } from '../args.js';
import { fetcherOptionsFromFlags, fetchFlags, fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { checkOutFile } from '../out-file.js';
import { systemErrorOf, systemErrorText } from '../system-errors.js';

const HELP = `Usage: focuscrawl topic learn --positive SRC... [--negative SRC...] [options]

Learns a topic file from example pages (DESIGN 1.5): TF-IDF keywords of the positive
examples, weighted by how specific each word is to them when negative (off-topic)
examples are given, merged with an expert's keywords when --expert is given. Writes
the topic (keywords with weights, their idf, the number of examples, a suggested
threshold) and prints the keywords with weight and source. See docs/topics.md.

A source SRC is an http(s) URL, a folder (its .html, .htm and .txt files), an .html
file, or any other file listing URLs one per line. Several may follow one flag:
--positive a.txt b/ http://x.test/1.html

  --positive SRC...    on-topic examples (required)
  --negative SRC...    off-topic examples: much better keywords, idf and a threshold
  --expert FILE        a topic file whose keywords are the expert's (kept, merged)
  --top N              learned keywords kept before the merge (default 30)
  --expert-share L     the expert's share λ in the merge, in (0, 1] (default 0.5)
  --name NAME          topic name (default: the expert's)
  --language LANG      main language, e.g. zh or en (default: the expert's)
  --out FILE           write the topic there (default: print it on stdout, the
                       table on stderr)

${fetchFlagsHelp}`;

const LIST_FLAGS = new Set(['--positive', '--negative']);

const flags: FlagSpec = {
  ...fetchFlags,
  positive: { type: 'string', multiple: true },
  negative: { type: 'string', multiple: true },
  expert: { type: 'string' },
  top: { type: 'string' },
  'expert-share': { type: 'string' },
  name: { type: 'string' },
  language: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/**
 * `--positive a b --negative c` → `--positive a --positive b --negative c`: bare words
 * after a list flag's value belong to it.
 */
export function expandListFlags(argv: readonly string[], spec: FlagSpec): string[] {
  const out: string[] = [];
  let list: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      const name = a.replace(/^--?/, '').split('=')[0] ?? '';
      list = LIST_FLAGS.has(`--${name}`) ? `--${name}` : undefined;
      out.push(a);
      // A flag taking a value consumes the next word (unless given as --flag=value).
      if (!a.includes('=') && spec[name]?.type === 'string' && i + 1 < argv.length) {
        out.push(argv[++i] as string);
      }
      continue;
    }
    if (list !== undefined) out.push(list, a);
    else out.push(a);
  }
  return out;
}

/** Terminal columns taken by `s` (CJK and full-width characters take two). */
function width(s: string): number {
  let w = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const wide =
      (cp >= 0x1100 && cp <= 0x115f) ||
      (cp >= 0x2e80 && cp <= 0xa4cf) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xfe30 && cp <= 0xfe4f) ||
      (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6) ||
      (cp >= 0x20000 && cp <= 0x3fffd);
    w += wide ? 2 : 1;
  }
  return w;
}

const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - width(s)));

/** The learned keywords as a table, heaviest first. */
export function formatLearned(r: LearnResult, where: string | undefined): string {
  const l = r.learned;
  const lines: string[] = [];
  const neg = l.negatives > 0 ? ` and ${l.negatives} negative` : '';
  lines.push(
    `Learned ${l.keywords.length} keywords from ${l.positives} positive${neg} example(s)${l.negatives > 0 ? ' (class-weighted TF-IDF)' : ' (TF-IDF; no negative examples: no idf, no threshold)'}:`,
  );
  const wordWidth = Math.max(7, ...l.keywords.map((k) => width(k.word)));
  const header = ['  #', pad('keyword', wordWidth), 'weight', 'source ', '   idf', 'in positive'];
  if (l.negatives > 0) header.push('in negative');
  lines.push(header.join('  '));
  l.keywords.forEach((k, i) => {
    const row = [
      String(i + 1).padStart(3),
      pad(k.word, wordWidth),
      k.weight.toFixed(4),
      k.source.padEnd(7),
      l.negatives > 0 ? k.idf.toFixed(3).padStart(6) : '     -',
      `${k.positiveDocs}/${l.positives}`.padStart(11),
    ];
    if (l.negatives > 0) row.push(`${k.negativeDocs}/${l.negatives}`.padStart(11));
    lines.push(row.join('  '));
  });
  if (l.threshold !== undefined) {
    lines.push(
      `Suggested threshold ${l.threshold} (separates the training examples best under the tfidf model; written to the topic).`,
    );
  }
  if (where !== undefined) lines.push(`Wrote ${where}.`);
  return lines.join('\n');
}

export async function topicCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(HELP);
    return 0;
  }
  if (sub !== 'learn') {
    throw new CliUsageError(
      `focuscrawl topic: unknown subcommand "${sub}" (try: focuscrawl topic learn --help)`,
    );
  }
  const p = parseFlags('topic learn', expandListFlags(rest, flags), flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (p.positionals.length > 0) {
    throw new CliUsageError(
      `focuscrawl topic learn: unexpected argument "${p.positionals[0]}" (sources follow --positive or --negative)`,
    );
  }
  const positive = strs(p, 'positive');
  if (positive.length === 0) {
    throw new CliUsageError(
      'focuscrawl topic learn: give --positive SRC... (see focuscrawl topic learn --help)',
    );
  }
  const top = int(p, 'top', 'topic learn');
  if (top === 0) throw new CliUsageError('focuscrawl topic learn: --top must be at least 1');
  const shareRaw = str(p, 'expert-share');
  const share = shareRaw === undefined ? undefined : Number(shareRaw);
  if (share !== undefined && !(share > 0 && share <= 1)) {
    throw new CliUsageError(
      `focuscrawl topic learn: --expert-share must be a number in (0, 1], got "${shareRaw}"`,
    );
  }
  const expertFile = str(p, 'expert');
  const name = str(p, 'name');
  const language = str(p, 'language');
  const out = str(p, 'out');
  if (out !== undefined) checkOutFile(out, 'topic learn');
  const result = await learnTopic({
    positive,
    negative: strs(p, 'negative'),
    ...(expertFile !== undefined ? { expert: loadTopicFile(expertFile) } : {}),
    ...(top !== undefined ? { top } : {}),
    ...(share !== undefined ? { expertShare: share } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(language !== undefined ? { language } : {}),
    fetcher: fetcherOptionsFromFlags(p, 'topic learn'),
    onSkip: (s) => io.err(`skipped ${s.source}: ${s.reason}`),
  });
  const json = JSON.stringify(result.topic, null, 2);
  if (out === undefined) {
    io.out(json);
    io.err(formatLearned(result, undefined));
    return 0;
  }
  try {
    writeFileSync(out, `${json}\n`);
  } catch (cause) {
    const sys = systemErrorOf(cause);
    const why = sys
      ? systemErrorText(sys, { flag: '--out', value: out })
      : `--out ${out}: ${(cause as Error).message}`;
    throw new LearnError(`cannot write the topic file: ${why}`, { cause });
  }
  io.out(formatLearned(result, out));
  return 0;
}
