// Seeds given on the command line: URLs, or files listing one URL per line.
import { readFileSync } from 'node:fs';
import { CliUsageError } from '../errors/index.js';
import { canonicalizeUrl } from '../url/canonicalize.js';

function looksLikeUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s);
}

/**
 * Each argument is a URL or a file of URLs (one per line; blank lines and lines
 * starting with `#` ignored). Errors name the argument, or the file and line.
 */
export function readSeeds(args: readonly string[], command: string): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (looksLikeUrl(arg)) {
      if (canonicalizeUrl(arg) === null) {
        throw new CliUsageError(`focuscrawl ${command}: seed "${arg}" is not an http(s) URL`);
      }
      out.push(arg);
      continue;
    }
    let text: string;
    try {
      text = readFileSync(arg, 'utf8');
    } catch (cause) {
      throw new CliUsageError(
        `focuscrawl ${command}: seed "${arg}" is neither a URL nor a readable file of URLs`,
        { cause },
      );
    }
    text.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      if (canonicalizeUrl(line) === null) {
        throw new CliUsageError(
          `focuscrawl ${command}: ${arg}:${i + 1}: "${line}" is not an http(s) URL`,
        );
      }
      out.push(line);
    });
  }
  return out;
}
