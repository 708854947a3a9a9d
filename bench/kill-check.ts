// `focuscrawl check --store DIR` for the SIGKILL bench (bench/kill.ts): run in a child
// process as a user runs it (or the same code in this process, for tests), and its
// report sorted into what a kill may leave and what it must not.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CheckReport, checkStore } from '../src/store/index.js';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** `focuscrawl check --store DIR --json`, in a child process (`cli`) or in this one. */
export async function runCheck(dir: string, cli: boolean): Promise<CheckReport> {
  if (!cli) return checkStore(dir);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        join(repo, 'test', 'crawl', 'cli-child.ts'),
        'check',
        '--store',
        dir,
        '--json',
      ],
      { cwd: repo, maxBuffer: 64 * 1024 * 1024 },
      (err, out, stderr) => {
        // Exit status 1: problems left, reported on stdout all the same.
        if (err !== null && (err as { code?: unknown }).code !== 1) {
          reject(new Error(`focuscrawl check: ${err.message}\n${stderr}`));
        } else resolve(out);
      },
    );
  });
  return JSON.parse(stdout) as CheckReport;
}

/**
 * `check` right after a kill: leftovers of writes the kill interrupted (page files
 * written before their commit, `tmp/`) are what a crash leaves, counted; any other
 * problem is a discrepancy. `final`: after a run that ended, nothing at all.
 */
export function checkProblems(
  r: CheckReport,
  final: boolean,
): { problems: string[]; leftovers: number } {
  const problems: string[] = [];
  let leftovers = 0;
  for (const p of r.problems) {
    if (!final && p.part === 'leftover') leftovers++;
    else problems.push(`check: ${p.part} ${p.where}: ${p.message}`);
  }
  return { problems, leftovers };
}
