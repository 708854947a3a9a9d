#!/usr/bin/env node
import { main } from '../dist/cli/index.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`focuscrawl: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  },
);
