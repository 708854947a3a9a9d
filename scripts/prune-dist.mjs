// Removes from dist/ what the build no longer emits: the output of sources that were
// deleted, or that tsconfig.build.json leaves out (tests, test kits, the store's
// conformance suite). tsc only ever adds files, and `files` in package.json publishes
// all of dist/. Run after `tsc -p tsconfig.build.json`.
//
// It also copies what the build does not compile: the dashboard's files
// (src/serve/assets, served by `focuscrawl serve`) to dist/serve/assets, afresh, so
// that a file deleted from the sources is gone from dist/ too.
import { cpSync, existsSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const CONFIG = 'tsconfig.build.json';
const host = {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
};
const config = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, host);
if (config === undefined) throw new Error(`cannot read ${CONFIG}`);
const rootDir = resolve(config.options.rootDir ?? 'src');
const outDir = resolve(config.options.outDir ?? 'dist');
// Each input as its path under rootDir without the extension: `store/sqlite`.
const built = new Set(
  config.fileNames.map((f) => relative(rootDir, resolve(f)).replace(/\.[cm]?tsx?$/, '')),
);
const OUTPUT = /(\.d\.ts\.map|\.d\.ts|\.js\.map|\.js)$/;

/** Folders copied as they are, not built: never pruned. */
const COPIED = ['serve/assets'];

let removed = 0;
function prune(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const p = join(dir, name);
    if (COPIED.includes(relative(outDir, p).split('\\').join('/'))) continue;
    if (statSync(p).isDirectory()) {
      prune(p);
      if (readdirSync(p).length === 0) rmdirSync(p);
      continue;
    }
    if (!OUTPUT.test(name)) continue;
    const source = relative(outDir, p).replace(OUTPUT, '');
    if (built.has(source)) continue;
    rmSync(p, { force: true });
    removed++;
  }
}
prune(outDir);
if (removed > 0) console.log(`prune-dist: removed ${removed} stale file(s) from dist/`);

for (const folder of COPIED) {
  const from = join(rootDir, folder);
  const to = join(outDir, folder);
  rmSync(to, { recursive: true, force: true });
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}
