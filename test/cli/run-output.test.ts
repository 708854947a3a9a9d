// What `crawl` tells the user, end to end on the test web: the summary's fetch
// statistics and its next commands one a line, the log file (text and JSON lines) at
// the log level given, and the output flags refused when they contradict each other
// or the log file cannot be written.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestWeb, type TestWeb, topicKeywords } from '../../src/testweb/index.js';
import { crawlTestWeb, runCli } from '../run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-run-output-'));
const topic = join(root, 'grid.json');
writeFileSync(topic, JSON.stringify(topicKeywords('grid')));
let web: TestWeb;
let n = 0;
const newDir = () => join(root, `store${++n}`);

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /;

describe('crawl output', () => {
  it('the summary shows the fetch statistics and the next commands one a line; -v logs every page to --log-file', async () => {
    const store = newDir();
    const log = join(root, 'crawl.log');
    const r = await crawlTestWeb(
      web,
      store,
      topic,
      'http://dianwang.test/',
      '--seeds',
      'http://status.test/404',
      '--max-pages',
      '15',
      '--log-file',
      log,
      '-v',
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^ {2}by status +200 \d+.*404 1/m);
    assert.match(r.out, /^ {2}by error +HTTP 404 1$/m);
    assert.match(r.out, /^ {2}failing hosts +status\.test 1 of 1 \(100\.0%\)$/m);
    assert.match(r.out, /^ {2}bytes +[\d.]+ (KiB|MiB) received/m);
    // Two hosts answered: they are ranked by their median time per fetch, here and in status.
    assert.match(r.out, /^ {2}slowest hosts +\S+ \d+ ms, \S+ \d+ ms.*\(median per fetch\)$/m);
    const st = await runCli('status', '--store', store);
    assert.match(st.out, /^ {2}slowest hosts +\S+ \d+ ms, \S+ \d+ ms.*\(median per fetch\)$/m);
    assert.ok(
      r.out.endsWith(
        `next:\n  focuscrawl status --store ${store}\n  focuscrawl search --store ${store} "words"\n  focuscrawl report --store ${store} --out report.html\n`,
      ),
      r.out,
    );
    assert.doesNotMatch(r.out, / \| focuscrawl/);

    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    assert.ok(
      lines.every((l) => STAMP.test(l)),
      lines.join('\n'),
    );
    const pages = lines.filter((l) => / page (complete|discard|error) /.test(l));
    // One line per outcome at debug: 15 pages, the 404 among them.
    assert.equal(pages.length, 15, pages.join('\n'));
    assert.ok(pages.some((l) => l.includes('page error 404 - http://status.test/404: HTTP 404')));
    assert.ok(lines.some((l) => / end max-pages: /.test(l)));
    // Then the summary, as printed.
    assert.ok(lines.some((l) => / {2}by error +HTTP 404 1$/.test(l)));
    assert.ok(lines.some((l) => l.endsWith(' next:')));

    // A second run appends, at info: no page lines.
    const again = await crawlTestWeb(
      web,
      store,
      topic,
      'http://dianwang.test/',
      '--max-pages',
      '20',
      '--log-file',
      log,
    );
    assert.equal(again.code, 0, again.err);
    const after2 = readFileSync(log, 'utf8').trimEnd().split('\n');
    assert.deepEqual(after2.slice(0, lines.length), lines);
    const added = after2.slice(lines.length);
    assert.ok(added.some((l) => / end max-pages: /.test(l)));
    assert.ok(!added.some((l) => / page (complete|discard|error) /.test(l)), added.join('\n'));
  });

  it('--json-log writes the events as JSON lines to standard output and to --log-file', async () => {
    const log = join(root, 'crawl.jsonl');
    const r = await crawlTestWeb(
      web,
      newDir(),
      topic,
      'http://dianwang.test/',
      '--max-pages',
      '5',
      '--json-log',
      '--log-file',
      log,
    );
    assert.equal(r.code, 0, r.err);
    const events = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; time: string });
    assert.equal(events.filter((e) => e.event === 'page').length, 5);
    assert.equal(events.at(-1)?.event, 'end');
    const out = r.out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { event: string }).event);
    assert.deepEqual(
      out.filter((e) => e !== 'progress' && e !== 'ranked'),
      events.map((e) => e.event).filter((e) => e !== 'progress'),
    );
  });

  const refused: [string, string[], RegExp][] = [
    [
      'a log file in a missing directory',
      ['--log-file', join(root, 'nope', 'crawl.log')],
      /--log-file .*nope.*crawl\.log: the directory .*nope does not exist/,
    ],
    [
      'a directory as the log file',
      ['--log-file', root],
      /--log-file .*: cannot write to it: it is a directory/,
    ],
    ['-q with -v and no log file', ['-v'], /-q\/--quiet and -v\/--verbose contradict each other/],
    [
      '-v with --log-level',
      ['-v', '--log-level', 'warn', '--log-file', join(root, 'x.log')],
      /-v\/--verbose is --log-level debug/,
    ],
    [
      'an unknown log level',
      ['--log-level', 'chatty'],
      /--log-level must be one of error, warn, info, debug, got "chatty"/,
    ],
  ];
  for (const [what, extra, re] of refused) {
    it(`refuses ${what}: exit 2, the flag named, nothing crawled`, async () => {
      const store = newDir();
      web.clearLog();
      // crawlTestWeb gives --quiet.
      const r = await crawlTestWeb(web, store, topic, 'http://dianwang.test/', ...extra);
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, /^FC_ERR_CLI_USAGE: focuscrawl crawl: /);
      assert.match(r.err, re);
      assert.doesNotMatch(r.err, /\n\s+at /);
      assert.equal(existsSync(join(store, 'crawl.db')), false);
      assert.equal(web.requests.length, 0);
    });
  }

  it('crawl --help explains the progress line and the output flags', async () => {
    const r = await runCli('crawl', '--help');
    assert.equal(r.code, 0);
    assert.match(
      r.out,
      /^ {2}p\/s pages per second; w waiting, p processing, c complete \(kept\),/m,
    );
    assert.match(r.out, /^ {2}.*N% of the budget \(--max-pages, else --duration\) with the ETA$/m);
    for (const flag of [
      '--log-level LEVEL',
      '-v, --verbose',
      '-q, --quiet',
      '--log-file FILE',
      '--progress-every D',
    ])
      assert.ok(r.out.includes(`  ${flag}`), flag);
  });
});
