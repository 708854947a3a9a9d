import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliFlagNames, inFlagWords } from './flag-words.js';

test("the library's option names become the flags a user types", async () => {
  const flags = await cliFlagNames();
  const cases: [string, string][] = [
    [
      'refusing to fetch http://127.0.0.1:9/: 127.0.0.1 is a loopback address (set allowPrivateAddresses, or map the host with resolve)',
      'refusing to fetch http://127.0.0.1:9/: 127.0.0.1 is a loopback address (set --allow-private, or map the host with --resolve)',
    ],
    [
      'model "bayes" needs modelFile (a model from `focuscrawl train`) or learnEvery',
      'model "bayes" needs --model-file (a model from `focuscrawl train`) or --learn-every',
    ],
    [
      'invalid crawl options: fetcher.perHostConcurrency (8) is more than fetcher.concurrency (4), which caps it',
      'invalid crawl options: --per-host-concurrency (8) is more than --concurrency (4), which caps it',
    ],
    ['fetcher.maxBytes: expected a positive integer', '--max-bytes: expected a positive integer'],
    ['strategyOptions.width: too small', '--width: too small'],
    ['relearn (--relearn) needs a site model', 'relearn (--relearn) needs a site model'],
    ['siteModel (--site-model) is missing', '--site-model is missing'],
    ['threshold.batchPages must be at least 1', '--batch-pages must be at least 1'],
    [
      'include[0]: "(" is not a valid regular expression',
      '--include: "(" is not a valid regular expression',
    ],
    ['fetcher.resolve[1]: malformed', '--resolve: malformed'],
    ['links[3] and sizes[0]', 'links[3] and sizes[0]'],
    // Not options: URLs, file names, quoted values, plain words and unknown names stay.
    ['http://a.test/maxPages.html and robots.txt', 'http://a.test/maxPages.html and robots.txt'],
    ['got "maxPages", expected a number', 'got "maxPages", expected a number'],
    ['the topic has no keywords', 'the topic has no keywords'],
    ['notAnOption: bad', 'notAnOption: bad'],
  ];
  for (const [message, want] of cases) assert.equal(inFlagWords(message, flags), want);
});
