// The focuscrawl CLI from the sources (run through tsx), for runs without a build.
import { main } from '../../src/cli/index.js';

process.exitCode = await main(process.argv.slice(2));
