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
