import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strategyOptionsSchema } from '../crawl/index.js';
import { isFocusCrawlError } from '../errors/index.js';
import { parseFlags } from './args.js';
import { crawlCommandFlags } from './commands/crawl.js';
import { CRAWL_FLAGS, crawlOptionsFromFlags, crawlRunOptionsFromFlags } from './crawl-flags.js';
import { CONSTANT_STRATEGIES, companionsOf, FLAG_RULES } from './flag-checks.js';

const BASE = ['--store', 'dir', '--topic', 'topic.json'];

/** The usage error the flags give (exit 2), or null when they are accepted. */
function refusal(argv: string[], cmd = 'crawl'): string | null {
  try {
    const p = parseFlags(cmd, [...BASE, ...argv], crawlCommandFlags);
    if (cmd === 'crawl') crawlOptionsFromFlags(p);
    else crawlRunOptionsFromFlags(p, cmd);
    return null;
  } catch (e) {
    assert.ok(isFocusCrawlError(e), String(e));
    assert.equal(e.code, 'FC_ERR_CLI_USAGE', e.message);
    return e.message;
  }
}

describe('flags that make sense together are accepted', () => {
  const cases: string[][] = [
    [],
    ['--strategy', 'fish', '--width', '5'],
    ['--strategy', 'shark', '--width', '5', '--decay', '0.3', '--anchor-weight', '0.5'],
    ['--strategy', 'tunnel', '--seed-val', '50', '--tunnel-steps', '2'],
    ['--strategy', 'multi-queue', '--queues', '8', '--explore-steps', '3'],
    ['--explore-steps', '3', '--sibling-window', '2', '--sibling-decay', '0.5'],
    ['--depth-cost', '0', '--crowd-cost', '0.1'],
    ['--strategy', 'pagerank', '--damping', '0.85', '--rank-buffer', '500'],
    ['--model', 'bayes', '--model-file', 'm.json'],
    ['--model', 'bayes', '--learn-every', '50', '--strategy', 'bayes'],
    ['--model', 'bayes', '--model-file', 'm.json', '--page-model', 'tfidf'],
    ['--page-model', 'bayes', '--model-file', 'm.json'],
    ['--page-model', 'tfidf'],
    ['--adapt-topic', '--adapt-every', '100', '--max-drift', '0.1'],
    ['--site-model', 'learn', '--relearn'],
    ['--threshold', 'adaptive', '--alpha', '1.1', '--max-threshold', '0.5'],
    ['--threshold', 'iterative', '--t0', '0.02'],
    ['--dedup-distance', '5'],
    ['--host-retry-ms', '5000', '--host-dead-after-ms', '60000'],
    ['--concurrency', '1024', '--per-host-concurrency', '1024'],
    ['--timeout-ms', '5000'],
    ['--user-agent', 'bot/1 (+https://a.example/)'],
  ];
  for (const argv of cases) {
    it(argv.join(' ') || '(no option flag)', () => {
      assert.equal(refusal(argv), null);
    });
  }
});

describe('conflicting, idle and absurd flags are refused, naming the flags', () => {
  const cases: [argv: string[], message: RegExp][] = [
    [['--strategy', 'bayes'], /--strategy bayes needs --model bayes: /],
    [['--no-dedup', '--dedup-distance', '5'], /--dedup-distance 5 does not go with --no-dedup/],
    [
      ['--strategy', 'bfs', '--width', '7'],
      /--width is a constant of --strategy fish or shark: it does nothing under --strategy bfs/,
    ],
    [['--width', '7'], /under the default strategy, best-first \(no --strategy\)/],
    [
      ['--model', 'bayes', '--model-file', 'm.json', '--explore-steps', '1'],
      /--explore-steps is a constant of --strategy best-first or multi-queue: .* bayes/,
    ],
    [['--rank-buffer', '10'], /--rank-buffer is a constant of --strategy pagerank/],
    [['--strategy', 'best-first', '--damping', '0.9'], /--damping .* --strategy best-first/],
    [['--queues', '8'], /--queues is a constant of --strategy multi-queue/],
    [
      ['--strategy', 'bfs', '--depth-cost', '0.01'],
      /--depth-cost is a constant of --strategy best-first/,
    ],
    [['--crowd-cost', '2'], /--crowd-cost.*2/],
    [['--adapt-every', '100'], /--adapt-every 100 needs --adapt-topic/],
    [['--max-drift', '0.1'], /--max-drift 0.1 needs --adapt-topic/],
    [['--relearn'], /--relearn needs --site-model/],
    [['--learn-every', '10'], /--learn-every 10 needs --model bayes/],
    [['--model', 'bayes'], /--model bayes needs --model-file or --learn-every/],
    [['--page-model', 'bayes'], /--page-model bayes needs --model-file/],
    [['--model-file', 'm.json'], /--model-file m.json needs --model bayes or --page-model bayes/],
    [
      ['--model', 'vsm', '--page-model', 'tfidf'],
      /--page-model tfidf does not go with --model vsm/,
    ],
    [
      ['--sibling-window', '0', '--sibling-decay', '0.5'],
      /--sibling-decay 0.5 does not go with --sibling-window 0/,
    ],
    [
      ['--host-dead-after-ms', '0', '--host-retry-ms', '5000'],
      /--host-retry-ms 5000 does not go with --host-dead-after-ms 0/,
    ],
    [
      ['--threshold', 'iterative', '--alpha', '2'],
      /--alpha applies to --threshold adaptive, not to --threshold iterative/,
    ],
    [
      ['--threshold', 'adaptive', '--min-threshold', '0.5', '--max-threshold', '0.2'],
      /--max-threshold must be a number ≥ --min-threshold \(0\.5\), got 0\.2/,
    ],
    [['--dedup-distance', '9'], /--dedup-distance must be at most 8, got 9/],
    [['--strategy', 'shark', '--decay', '1'], /--decay must be less than 1, got 1/],
    [['--strategy', 'multi-queue', '--queues', '100'], /--queues must be at most 64, got 100/],
    [['--context-chars', '20000'], /--context-chars must be at most 10000, got 20000/],
    [['--concurrency', '1000000'], /--concurrency must be at most 1024 .*got 1000000/],
    [
      ['--per-host-concurrency', '32'],
      /--per-host-concurrency 32 is more than --concurrency \(its default 16\)/,
    ],
    [
      ['--concurrency', '4', '--per-host-concurrency', '8'],
      /--per-host-concurrency 8 is more than --concurrency \(4\)/,
    ],
    [['--timeout-ms', '0'], /--timeout-ms must be at least 1/],
    [['--connect-timeout-ms', '0'], /--connect-timeout-ms must be at least 1/],
    [['--first-byte-timeout-ms', '0'], /--first-byte-timeout-ms must be at least 1/],
    [
      ['--first-byte-timeout-ms', '90000', '--timeout-ms', '60000'],
      /--first-byte-timeout-ms 90000 is longer than --timeout-ms 60000/,
    ],
    [['--max-bytes', '0'], /--max-bytes must be at least 1 byte/],
    // A larger page cannot be decoded into one string (a 600 MB page failed untyped).
    [['--max-bytes', '600000000'], /--max-bytes must be at most 536870888, got 600000000/],
    [
      ['--user-agent', 'bot/1', '--contact-url', 'https://a.example/'],
      /--contact-url .*--user-agent/,
    ],
    [['--proxy', 'socks5://h:1'], /--proxy must be an http\(s\) URL, got "socks5:\/\/h:1"/],
  ];
  for (const [argv, message] of cases) {
    it(argv.join(' '), () => {
      const m = refusal(argv);
      assert.ok(m !== null, 'accepted');
      assert.match(m, /^focuscrawl crawl: /);
      assert.match(m, message);
    });
  }
});

describe('compare', () => {
  it('leaves combinations to its run specs, but refuses values out of range', () => {
    assert.equal(refusal(['--width', '7', '--adapt-every', '100'], 'compare'), null);
    assert.match(
      refusal(['--dedup-distance', '9'], 'compare') ?? '',
      /^focuscrawl compare: --dedup-distance must be at most 8/,
    );
    assert.match(
      refusal(['--concurrency', '5000'], 'compare') ?? '',
      /^focuscrawl compare: --concurrency/,
    );
  });
});

describe('the rule tables', () => {
  it('every strategy constant says which strategies read it, as its help does', () => {
    const constants = CRAWL_FLAGS.filter((d) => d.option.startsWith('strategyOptions.'));
    assert.deepEqual(
      constants.map((d) => d.option.slice('strategyOptions.'.length)).sort(),
      Object.keys(strategyOptionsSchema.shape).sort(),
    );
    assert.deepEqual(
      Object.keys(CONSTANT_STRATEGIES).sort(),
      Object.keys(strategyOptionsSchema.shape).sort(),
    );
    for (const d of constants) {
      const owners = CONSTANT_STRATEGIES[
        d.option.slice('strategyOptions.'.length) as keyof typeof CONSTANT_STRATEGIES
      ] as readonly string[];
      const named = (/^([a-z/-]+):/.exec(d.help)?.[1] ?? '').split('/');
      for (const s of named) assert.ok(owners.includes(s), `--${d.flag}: help names ${s}`);
    }
  });

  it('every rule names flags of crawl', () => {
    for (const r of FLAG_RULES) {
      for (const g of [r.when, ...(r.needs ?? []), ...(r.conflicts ? [r.conflicts] : [])]) {
        assert.ok(g.flag in crawlCommandFlags, g.flag);
      }
    }
  });

  it('companionsOf gives what a flag needs to be accepted alone', () => {
    const cases: [Record<string, string | true>, Record<string, string | true>][] = [
      [{ width: '3' }, { strategy: 'fish' }],
      [{ 'model-file': 'm.json' }, { model: 'bayes' }],
      [{ 'learn-every': '5' }, { model: 'bayes' }],
      [{ model: 'bayes' }, { 'model-file': 'model.json' }],
      [{ relearn: true }, { 'site-model': 'learn' }],
      [{ 'adapt-every': '5' }, { 'adapt-topic': true }],
      [{ 'dedup-distance': '3' }, {}],
    ];
    for (const [given, extra] of cases) assert.deepEqual(companionsOf(given), extra);
  });
});
