// Files a command writes (`--out`): checked before any work, so that a mistyped folder
// is a usage error naming the flag (exit status 2) rather than a failure at the end.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliUsageError } from '../errors/index.js';

/**
 * Checks that `out`, given to `flag` of `command`, can be written: its folder exists
 * (and is a folder) and it is not itself a folder.
 */
export function checkOutFile(out: string, command: string, flag = '--out'): void {
  const parent = dirname(resolve(out));
  if (!existsSync(parent) || !statSync(parent).isDirectory()) {
    throw new CliUsageError(
      `focuscrawl ${command}: ${flag} ${out}: the folder ${parent} does not exist`,
    );
  }
  if (existsSync(out) && statSync(out).isDirectory()) {
    throw new CliUsageError(`focuscrawl ${command}: ${flag} ${out} is a folder; give a file name`);
  }
}
