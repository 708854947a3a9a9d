// Runs the focuscrawl CLI from the sources in a child process (crash and signal tests).
import { main } from '../../src/cli/index.js';

process.exitCode = await main(process.argv.slice(2));
