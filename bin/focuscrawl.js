#!/usr/bin/env node
// The `focuscrawl` command: runs the compiled CLI (dist/, built by `npm install` or
// `npm run build`). Errors are said by the CLI itself, one line each; what reaches
// this file is a fault of focuscrawl's own, shown whole to be reported.

let main;
try {
  ({ main } = await import('../dist/cli/index.js'));
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
    process.stderr.write(
      'focuscrawl: the command is not built (dist/ is missing): run `npm install` or `npm run build` in the focuscrawl folder\n',
    );
    process.exit(1);
  }
  throw err;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`focuscrawl: internal error: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  },
);
