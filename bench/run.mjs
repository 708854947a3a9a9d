// `npm run bench`: every benchmark of the project in sequence (after `npm run build`),
// with the peer installed in bench/ when it is missing. Figures go to BENCHMARKS.md by hand.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
if (!existsSync(join(here, 'node_modules', '@crawlee', 'cheerio'))) {
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: here,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const runs = [
  ['fetch-parse.mjs', '--pages', '50000', '--rounds', '3'],
  ['crawl.mjs', '--pages', '50000', '--rounds', '2', '--peer-rounds', '2', '--focused-rounds', '1'],
  ['strategies.mjs'],
  ['testweb.mjs', '--size', 'large', '--pages', '50000'],
  ['parse.mjs'],
  ['tokenize.mjs'],
  ['vsm.mjs'],
  ['url.mjs'],
];
for (const [file, ...args] of runs) {
  console.log(`\n=== node bench/${file} ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [join(here, file), ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
