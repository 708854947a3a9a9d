import { closeSync, openSync, writeFileSync } from 'node:fs';
import { CliUsageError } from '../../errors/index.js';
import { describeTestWeb, labels, startTestWeb, type WebSize } from '../../testweb/index.js';
import { bool, type FlagSpec, int, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { checkOutFile } from '../out-file.js';
import { withFlag, withFlagSync } from '../system-errors.js';

const HELP = `Usage:
  focuscrawl testweb [--port N] [--seed S] [--size small|medium|large] [--log FILE]
      Serve the deterministic synthetic web on 127.0.0.1 until Ctrl-C.
      Crawl it with --resolve '*.test=127.0.0.1:PORT'. (default port 0 = any free port,
      seed 1, size small)
  focuscrawl testweb labels [--seed S] [--size ...] [--topic ID] [--format json|urls|topic] [--out FILE]
      Print the ground-truth labels: json (default) = everything; urls = the relevant URLs
      of --topic, one per line; topic = a topic file (weighted keywords) for --topic.`;

const flags: FlagSpec = {
  port: { type: 'string' },
  seed: { type: 'string' },
  size: { type: 'string' },
  log: { type: 'string' },
  topic: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function sizeOf(v: string | undefined): WebSize {
  if (v === undefined) return 'small';
  if (v === 'small' || v === 'medium' || v === 'large') return v;
  throw new CliUsageError(`focuscrawl testweb: --size must be small, medium or large, got "${v}"`);
}

export async function testwebCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('testweb', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const seed = int(p, 'seed', 'testweb') ?? 1;
  const size = sizeOf(str(p, 'size'));
  const sub = p.positionals[0];
  if (sub === 'labels')
    return labelsCommand(io, seed, size, str(p, 'topic'), str(p, 'format'), str(p, 'out'));
  if (sub !== undefined) throw new CliUsageError(`focuscrawl testweb: unknown subcommand "${sub}"`);
  const logFile = str(p, 'log');
  const port = int(p, 'port', 'testweb') ?? 0;
  if (port > 65535) {
    throw new CliUsageError(`focuscrawl testweb: --port must be 0 … 65535, got ${port}`);
  }
  if (logFile !== undefined) {
    // The web takes a failing log file in its stride; a log file that cannot be opened
    // at all is said now, not found out later.
    checkOutFile(logFile, 'testweb', '--log');
    withFlagSync('--log', logFile, () => closeSync(openSync(logFile, 'a')));
  }
  const web = await withFlag('--port', String(port), () =>
    startTestWeb({ port, seed, size, ...(logFile ? { logFile } : {}) }),
  );
  io.out(describeTestWeb(web));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await web.close();
  return 0;
}

function labelsCommand(
  io: Io,
  seed: number,
  size: WebSize,
  topic: string | undefined,
  format: string | undefined,
  out: string | undefined,
): number {
  const all = labels({ seed, size });
  const fmt = format ?? 'json';
  let text: string;
  if (fmt === 'json') {
    text = JSON.stringify(topic ? pick(all, topic) : all, null, 2);
  } else if (fmt === 'urls' || fmt === 'topic') {
    if (!topic)
      throw new CliUsageError(`focuscrawl testweb labels: --format ${fmt} needs --topic ID`);
    const t = pick(all, topic);
    text = fmt === 'urls' ? t.relevant.join('\n') : JSON.stringify(t.topic, null, 2);
  } else {
    throw new CliUsageError(
      `focuscrawl testweb labels: --format must be json, urls or topic, got "${fmt}"`,
    );
  }
  if (out) {
    checkOutFile(out, 'testweb labels');
    withFlagSync('--out', out, () => writeFileSync(out, `${text}\n`));
  } else io.out(text);
  return 0;
}

function pick(all: ReturnType<typeof labels>, id: string) {
  const t = all.topics.find((x) => x.id === id);
  if (!t) {
    throw new CliUsageError(
      `focuscrawl testweb labels: unknown topic "${id}" (topics: ${all.topics.map((x) => x.id).join(', ')})`,
    );
  }
  return t;
}
