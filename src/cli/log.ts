// The output flags of the long-running commands (crawl, watch): the log level
// (`--log-level`, `-v`, `-q`), a log file (`--log-file`, JSON lines with `--json-log`)
// and how often a progress line is written off a terminal (`--progress-every`).
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliUsageError } from '../errors/index.js';
import { bool, duration, type FlagSpec, type Parsed, str } from './args.js';
import { DEFAULT_LINE_EVERY_MS, LOG_LEVELS, type LogLevel } from './progress.js';

/** The output flags, shared by `crawl` and `watch`. */
export const runOutputFlags: FlagSpec = {
  'log-level': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  quiet: { type: 'boolean', short: 'q' },
  'log-file': { type: 'string' },
  'json-log': { type: 'boolean' },
  'progress-every': { type: 'string' },
};

/** Their help lines. */
export const runOutputFlagsHelp = `  --log-level LEVEL            what is shown on standard error and written to --log-file:
                               error (nothing but errors), warn (warnings too), info (the
                               progress too), debug (a line per page too) (default info)
  -v, --verbose                the same as --log-level debug
  -q, --quiet                  no progress display on standard error: warnings and the
                               summary only (--log-file keeps its level)
  --log-file FILE              append the run's events to FILE as timestamped lines (JSON
                               lines with --json-log), and the summary at the end; its
                               directory must exist
  --json-log                   one JSON object per line per event on standard output
                               (progress, page, warning, end), and in --log-file
  --progress-every D           off a terminal (and in --log-file), a progress line at most
                               every D (default 10s)`;

/** What the output flags ask for. */
export interface LogSettings {
  /** What the log file records (and standard error, unless quiet). */
  level: LogLevel;
  /** `-q`: standard error shows warnings only. */
  quiet: boolean;
  /** `--log-file`, as given. */
  file?: string;
  /** `--json-log`. */
  json: boolean;
  /** `--progress-every` in milliseconds. */
  lineEveryMs: number;
}

const usage = (cmd: string, m: string) => new CliUsageError(`focuscrawl ${cmd}: ${m}`);

/**
 * Reads the output flags, refusing those that contradict each other or would be
 * ignored (each named).
 */
export function logSettingsOf(p: Parsed, cmd: string): LogSettings {
  const given = str(p, 'log-level');
  if (given !== undefined && !(LOG_LEVELS as readonly string[]).includes(given))
    throw usage(cmd, `--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${given}"`);
  const verbose = bool(p, 'verbose');
  const quiet = bool(p, 'quiet');
  const file = str(p, 'log-file');
  if (verbose && given !== undefined)
    throw usage(cmd, `-v/--verbose is --log-level debug: give one of -v and --log-level ${given}`);
  if (quiet && (verbose || given !== undefined) && file === undefined) {
    const other = verbose ? '-v/--verbose' : `--log-level ${given}`;
    throw usage(
      cmd,
      `-q/--quiet and ${other} contradict each other: -q shows warnings only (with --log-file, -q quiets the terminal and ${verbose ? '-v' : '--log-level'} sets the file's level)`,
    );
  }
  if (file !== undefined && file.trim() === '') throw usage(cmd, '--log-file needs a file name');
  const every = duration(p, 'progress-every', cmd);
  const level: LogLevel = verbose ? 'debug' : ((given as LogLevel | undefined) ?? 'info');
  return {
    level,
    quiet,
    json: bool(p, 'json-log'),
    lineEveryMs: every ?? DEFAULT_LINE_EVERY_MS,
    ...(file !== undefined ? { file } : {}),
  };
}

/** An open log file: lines are appended as they come. */
export interface LogFile {
  write(s: string): void;
  close(): void;
}

/**
 * Opens `path` to append to, with an error naming `--log-file` and the problem (a
 * missing directory, a directory, no permission) when it cannot be.
 */
export function openLogFile(path: string, cmd: string): LogFile {
  const full = resolve(path);
  const dir = dirname(full);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw usage(cmd, `--log-file ${path}: the directory ${dir} does not exist`);
  }
  if (!isDir) throw usage(cmd, `--log-file ${path}: ${dir} is not a directory`);
  let fd: number;
  try {
    fd = openSync(full, 'a');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'EISDIR'
        ? 'it is a directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : e instanceof Error
            ? e.message
            : String(e);
    throw usage(cmd, `--log-file ${path}: cannot write to it: ${why}`);
  }
  let open = true;
  return {
    write(s) {
      if (!open) return;
      try {
        writeSync(fd, s);
      } catch {
        // A full disk or a vanished file must not stop the crawl: the log ends here.
        open = false;
        try {
          closeSync(fd);
        } catch {}
      }
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
