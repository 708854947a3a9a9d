// Runs the CLI in-process, as a shell would, and captures what it prints.
import { main } from '../src/cli/index.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export async function runCli(...argv: string[]): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    out: (s) => {
      out += `${s}\n`;
    },
    err: (s) => {
      err += `${s}\n`;
    },
  });
  return { code, out, err };
}

/**
 * `focuscrawl crawl` of the test web from `seed` into `store`: no delay, no sitemaps,
 * quiet, the test web's names resolved to it; `extra` flags last.
 */
export function crawlTestWeb(
  web: { resolve: string },
  store: string,
  topic: string,
  seed: string,
  ...extra: string[]
): Promise<CliResult> {
  return runCli(
    'crawl',
    '--store',
    store,
    '--topic',
    topic,
    '--seeds',
    seed,
    '--resolve',
    web.resolve,
    '--allow-private',
    '--delay-ms',
    '0',
    '--sitemaps',
    'none',
    '--quiet',
    ...extra,
  );
}
