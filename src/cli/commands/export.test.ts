import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { buildRecordStore } from '../../export/__fixtures__/records.js';
import { buildRevisitStore } from '../../export/__fixtures__/revisits.js';
import { buildSampleStore, captureIo, parseCsv, SAMPLE } from '../../export/testing.js';
import { SEED_PRIORITY } from '../../store/index.js';
import { md5Hex } from '../../url/index.js';
import { tempDir } from '../../util/testing.js';
import { exportCommand } from './export.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

let dir: string;
before(async () => {
  dir = await buildSampleStore();
});

async function exp(...argv: string[]) {
  const io = captureIo();
  const code = await exportCommand(['--store', dir, ...argv], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

const jsonl = (out: string) =>
  out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test('history as JSON Lines: every fetch in time order, ISO times', async () => {
  const r = await exp('--what', 'history', '--format', 'jsonl');
  assert.equal(r.code, 0);
  const rows = jsonl(r.out);
  assert.deepEqual(
    rows.map((x) => [x['url'], x['state'], x['status'], x['relevance'], x['depth']]),
    [
      [SAMPLE.home, 'complete', 200, 0.8, 0],
      [SAMPLE.p1, 'complete', 200, 0.6, 1],
      [SAMPLE.p2, 'discard', 200, 0.05, 1],
      [SAMPLE.bx, 'error', 503, null, 1],
    ],
  );
  assert.equal(rows[0]?.['fetchedAt'], '2024-05-01T12:00:00.000Z');
  assert.equal(rows[0]?.['error'], null);
  assert.equal(rows[3]?.['error'], 'HTTP 503 Service Unavailable');
  assert.deepEqual(Object.keys(rows[0] ?? {}), [
    'url',
    'fetchedAt',
    'status',
    'state',
    'relevance',
    'depth',
    'error',
  ]);
});

test('pages as JSON Lines carry title, relevance, scores and the visible text', async () => {
  const rows = jsonl((await exp('--what', 'pages')).out);
  assert.deepEqual(
    rows.map((x) => x['url']),
    [SAMPLE.home, SAMPLE.p1, SAMPLE.p2],
  );
  const [home, p1, p2] = rows;
  assert.equal(home?.['title'], SAMPLE.homeTitle);
  assert.equal(home?.['relevance'], 0.8);
  assert.equal(home?.['pageRank'], 0.5);
  assert.equal(home?.['score'], 0.68);
  assert.equal(home?.['contentHash'], 'h-home');
  assert.equal(home?.['bodyFile'], `pages/${md5Hex(SAMPLE.home)}.gz`);
  assert.equal(home?.['contentType'], 'text/html; charset=utf-8');
  assert.match(String(home?.['text']), /电网 news, "quoted"/);
  assert.doesNotMatch(String(home?.['text']), /<p>/);
  assert.equal(p1?.['title'], SAMPLE.p1Title);
  assert.match(String(p1?.['text']), /显示器市场[\s\S]*价格上涨。/);
  assert.equal(p1?.['pageRank'], null);
  assert.equal(p2?.['state'], 'discard');
  assert.match(String(p2?.['text']), /Bread/);
});

test('pages --no-text leaves the text field out', async () => {
  const rows = jsonl((await exp('--what', 'pages', '--no-text')).out);
  assert.equal(rows.length, 3);
  assert.ok(rows.every((x) => !('text' in x)));
  assert.ok(rows.every((x) => 'title' in x && 'relevance' in x));
});

test('pages as CSV read back with a strict RFC 4180 reader: quotes, line breaks, CJK', async () => {
  const r = await exp('--what', 'pages', '--format', 'csv');
  assert.equal(r.code, 0);
  assert.ok(!r.out.startsWith('\uFEFF'));
  const [header, ...records] = parseCsv(r.out);
  assert.deepEqual(header, [
    'url',
    'state',
    'depth',
    'fetchedAt',
    'status',
    'contentType',
    'bytes',
    'title',
    'relevance',
    'pageRank',
    'score',
    'contentHash',
    'bodyFile',
    'simhash',
    'textHash',
    'duplicateOf',
    'duplicateKind',
    'duplicateDistance',
    'text',
  ]);
  assert.equal(records.length, 3);
  const col = (name: string) => header?.indexOf(name) ?? -1;
  const [home, p1] = records;
  assert.equal(home?.[col('title')], 'Home, "sweet"\nhome');
  assert.ok(r.out.includes('"Home, ""sweet""\nhome"'));
  assert.equal(home?.[col('fetchedAt')], '2024-05-01T12:00:00.000Z');
  assert.equal(p1?.[col('title')], '显示器市场，价格');
  assert.match(p1?.[col('text')] ?? '', /价格上涨。/);
  assert.equal(p1?.[col('pageRank')], ''); // null is an empty field
  assert.equal(p1?.[col('duplicateOf')], '');
  assert.equal(Number(home?.[col('relevance')]), 0.8);
});

test('csv --bom begins with the UTF-8 byte-order mark', async () => {
  const r = await exp('--what', 'links', '--format', 'csv', '--bom');
  assert.ok(r.out.startsWith('\uFEFFfrom,to,anchor\r\n'));
});

test('urls: every known URL in discovery order, or those of one state', async () => {
  const rows = jsonl((await exp('--what', 'urls')).out);
  assert.deepEqual(
    rows.map((x) => [x['url'], x['state'], x['depth'], x['parent']]),
    [
      [SAMPLE.home, 'complete', 0, null],
      [SAMPLE.p1, 'complete', 1, SAMPLE.home],
      [SAMPLE.p2, 'discard', 1, SAMPLE.home],
      [SAMPLE.bx, 'error', 1, SAMPLE.home],
      [SAMPLE.p3, 'waiting', 2, SAMPLE.p1],
    ],
  );
  assert.equal(rows[0]?.['priority'], SEED_PRIORITY);
  const ids = rows.map((x) => x['id'] as number);
  assert.deepEqual(
    ids,
    [...ids].sort((a, b) => a - b),
  );
  const csv = parseCsv((await exp('--what', 'urls', '--state', 'waiting', '--format', 'csv')).out);
  assert.deepEqual(csv[0], [
    'id',
    'url',
    'state',
    'depth',
    'priority',
    'value',
    'parent',
    'anchor',
    'context',
    'discoveredAt',
    'redirectTo',
  ]);
  assert.equal(csv.length, 2);
  assert.deepEqual(csv[1]?.slice(1), [
    SAMPLE.p3,
    'waiting',
    '2',
    '0.4',
    '0',
    SAMPLE.p1,
    'more',
    '',
    '2024-05-01T12:00:01.000Z',
    '',
  ]);
});

test('links: from, to, anchor', async () => {
  const rows = jsonl((await exp('--what', 'links')).out);
  assert.deepEqual(rows, [
    { from: SAMPLE.home, to: SAMPLE.p1, anchor: '显示器' },
    { from: SAMPLE.home, to: SAMPLE.p2, anchor: 'other' },
    { from: SAMPLE.home, to: SAMPLE.bx, anchor: 'x' },
    { from: SAMPLE.p1, to: SAMPLE.p3, anchor: 'more' },
  ]);
});

test('--out writes the file whole, takes CSV from the extension, and leaves no .tmp', async () => {
  const outDir = tempDir('export-out');
  const file = join(outDir, 'pages.csv');
  const r = await exp('--what', 'pages', '--out', file);
  assert.equal(r.code, 0);
  assert.equal(r.out, '');
  assert.match(r.err, /3 pages written to .*pages\.csv/);
  assert.deepEqual(readdirSync(outDir), ['pages.csv']);
  const text = readFileSync(file, 'utf8');
  assert.equal(text, (await exp('--what', 'pages', '--format', 'csv')).out);
  assert.equal(parseCsv(text).length, 4);

  const jl = join(outDir, 'history.jsonl');
  await exp('--what', 'history', '--out', jl);
  assert.equal(jsonl(readFileSync(jl, 'utf8')).length, 4);
  assert.deepEqual(readdirSync(outDir).sort(), ['history.jsonl', 'pages.csv']);
});

test('--out into a missing directory fails naming the flag and the file, and writes nothing', async () => {
  const file = join(tempDir('export-missing'), 'missing', 'x.jsonl');
  await assert.rejects(exp('--what', 'links', '--out', file), (e: Error) => {
    assert.equal((e as { code?: string }).code, 'FC_ERR_CLI_USAGE');
    assert.ok(e.message.includes(`--out ${file}: the folder`), e.message);
    return true;
  });
  assert.ok(!existsSync(file) && !existsSync(`${file}.tmp`));
});

test('export --out onto a folder is refused naming it, and leaves the folder as it was', async () => {
  const outDir = tempDir('export-dir');
  await assert.rejects(exp('--what', 'links', '--out', outDir), {
    code: 'FC_ERR_CLI_USAGE',
    message: `focuscrawl export: --out ${outDir} is a folder; give a file name`,
  });
  assert.deepEqual(readdirSync(outDir), []);
  assert.ok(!existsSync(`${outDir}.tmp`));
});

describe('export --state: the kept pages only (or the discarded ones)', () => {
  it('--what pages --state complete writes the kept pages, as JSON Lines', async () => {
    const r = await exp('--what', 'pages', '--state', 'complete', '--no-text');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(
      jsonl(r.out).map((x) => [x['url'], x['state']]),
      [
        [SAMPLE.home, 'complete'],
        [SAMPLE.p1, 'complete'],
      ],
    );
  });

  it('and as CSV: the relevant URLs with their titles and relevance', async () => {
    const outDir = tempDir('export-kept');
    const file = join(outDir, 'kept.csv');
    const r = await exp('--what', 'pages', '--state', 'complete', '--out', file);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /2 pages written to .*kept\.csv/);
    const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
    const col = (name: string) => header?.indexOf(name) ?? -1;
    assert.deepEqual(
      rows.map((row) => [row[col('url')], row[col('state')], Number(row[col('relevance')])]),
      [
        [SAMPLE.home, 'complete', 0.8],
        [SAMPLE.p1, 'complete', 0.6],
      ],
    );
  });

  it('--state discard writes the pages below the threshold', async () => {
    const r = await exp('--what', 'pages', '--state', 'discard', '--format', 'csv', '--no-text');
    const [header, ...rows] = parseCsv(r.out);
    assert.deepEqual(
      rows.map((row) => row[header?.indexOf('url') ?? -1]),
      [SAMPLE.p2],
    );
  });

  it('--what urls --state error lists the failed URLs, in JSON Lines and CSV', async () => {
    const lines = jsonl((await exp('--what', 'urls', '--state', 'error')).out);
    assert.deepEqual(
      lines.map((x) => x['url']),
      [SAMPLE.bx],
    );
    const [header, ...rows] = parseCsv(
      (await exp('--what', 'urls', '--state', 'error', '--format', 'csv')).out,
    );
    assert.deepEqual(
      rows.map((row) => row[header?.indexOf('url') ?? -1]),
      [SAMPLE.bx],
    );
  });
});

test('an earlier file under the --out name is replaced only when the export succeeds', async () => {
  const outDir = tempDir('export-out');
  const file = join(outDir, 'links.jsonl');
  writeFileSync(file, 'old\n');
  await exp('--what', 'links', '--out', file);
  assert.equal(jsonl(readFileSync(file, 'utf8')).length, 4);
});

test('bad flags are refused, naming the flag and the allowed values', async () => {
  const cases: [string[], RegExp][] = [
    [
      ['--what', 'tables'],
      /--what must be one of history, pages, urls, links, changes, records, got "tables"/,
    ],
    [
      ['--what', 'pages', '--format', 'yaml'],
      /--format must be one of jsonl, csv, xml, html, sql, warc, got "yaml"/,
    ],
    [
      ['--what', 'urls', '--state', 'done'],
      /--state must be one of waiting, processing, complete, discard, error, redirect, got "done"/,
    ],
    [
      ['--what', 'pages', '--state', 'waiting'],
      /--state must be one of complete, discard, got "waiting"/,
    ],
    [['--what', 'links', '--state', 'complete'], /--state applies to --what urls or pages only/],
    [['--what', 'urls', '--no-text'], /--no-text applies to --what pages only/],
    [['--what', 'pages', '--text', '--no-text'], /--text or --no-text, not both/],
    [['--what', 'links', '--bom'], /--bom applies to --format csv only/],
    [[], /--what is required: one of history, pages, urls, links, changes, records/],
    [['--what', 'links', '--dialect', 'postgres'], /--dialect applies to --format sql only/],
    [
      ['--what', 'links', '--format', 'sql', '--dialect', 'mysql'],
      /--dialect must be one of sqlite, postgres, got "mysql"/,
    ],
    [
      ['--what', 'links', '--format', 'warc'],
      /--format warc writes the stored pages: --what must be pages, got "links"/,
    ],
    [['--format', 'warc', '--no-text'], /--no-text does not apply to --format warc/],
    [['--what', 'records', '--no-text'], /--no-text applies to --what pages only/],
    [['--what', 'records', '--format', 'xml', '--bom'], /--bom applies to --format csv only/],
    [['--what', 'links', '--colour'], /unknown flag --colour \(see focuscrawl export --help\)/],
    [['--what', 'links', '--formt', 'csv'], /unknown flag --formt: did you mean --format\?/],
    [['--what', 'links', 'extra'], /unexpected argument "extra"/],
  ];
  for (const [argv, message] of cases) {
    await assert.rejects(exp(...argv), { code: 'FC_ERR_CLI_USAGE', message }, argv.join(' '));
  }
  await assert.rejects(exportCommand(['--what', 'links'], captureIo()), {
    code: 'FC_ERR_CLI_USAGE',
    message: /--store is required/,
  });
});

test('export of a missing store names the path', async () => {
  const missing = join(dir, 'nope');
  await assert.rejects(
    exportCommand(['--store', missing, '--what', 'urls'], captureIo()),
    (e: Error) => {
      assert.equal((e as { code?: string }).code, 'FC_ERR_STORE');
      assert.ok(e.message.includes(missing));
      return true;
    },
  );
});

describe('export --what changes: one row per recorded revisit', () => {
  let watched: string;
  before(async () => {
    watched = await buildRevisitStore();
  });
  const run = async (...argv: string[]) => {
    const io = captureIo();
    const code = await exportCommand(['--store', watched, '--what', 'changes', ...argv], io);
    return { code, out: io.stdout(), err: io.stderr() };
  };
  const FIELDS = [
    'url',
    'at',
    'status',
    'change',
    'contentHash',
    'textHash',
    'lastModified',
    'error',
  ];

  it('as JSON Lines, in the order recorded, times in ISO', async () => {
    const r = await run();
    assert.equal(r.code, 0, r.err);
    const rows = jsonl(r.out);
    assert.deepEqual(
      rows.map((x) => [x['url'], x['at'], x['status'], x['change']]),
      [
        [SAMPLE.home, '2024-05-01T12:10:00.000Z', 304, 'unchanged'],
        [SAMPLE.p1, '2024-05-01T12:10:01.000Z', 200, 'changed'],
        [SAMPLE.home, '2024-05-01T13:06:40.000Z', 200, 'changed'],
        [SAMPLE.p1, '2024-05-01T13:06:41.000Z', 304, 'unchanged'],
        [SAMPLE.home, '2024-05-01T14:00:00.000Z', null, 'failed'],
        [SAMPLE.p1, '2024-05-01T14:00:01.000Z', 404, 'gone'],
      ],
    );
    assert.deepEqual(rows[1], {
      url: SAMPLE.p1,
      at: '2024-05-01T12:10:01.000Z',
      status: 200,
      change: 'changed',
      contentHash: 'h-p1-v2',
      textHash: '00000000000000b2',
      lastModified: '2024-05-01T12:05:00.000Z',
      error: null,
    });
    assert.deepEqual(Object.keys(rows[0] ?? {}), FIELDS);
    assert.equal(rows[0]?.['lastModified'], null);
    assert.equal(rows[4]?.['error'], 'FC_ERR_NETWORK: socket hang up, "retry" later');
    assert.equal(rows[4]?.['contentHash'], null);
  });

  it('as CSV: the same fields, missing values empty, quotes doubled', async () => {
    const r = await run('--format', 'csv');
    const [header, ...records] = parseCsv(r.out);
    assert.deepEqual(header, FIELDS);
    assert.equal(records.length, 6);
    assert.deepEqual(records[1], [
      SAMPLE.p1,
      '2024-05-01T12:10:01.000Z',
      '200',
      'changed',
      'h-p1-v2',
      '00000000000000b2',
      '2024-05-01T12:05:00.000Z',
      '',
    ]);
    assert.deepEqual(records[4], [
      SAMPLE.home,
      '2024-05-01T14:00:00.000Z',
      '',
      'failed',
      '',
      '',
      '',
      'FC_ERR_NETWORK: socket hang up, "retry" later',
    ]);
    assert.ok(r.out.includes('"FC_ERR_NETWORK: socket hang up, ""retry"" later"'));
  });

  it('--out names the rows revisits; a store without revisits has none', async () => {
    const outDir = tempDir('export-out');
    const file = join(outDir, 'changes.csv');
    const r = await run('--out', file, '--bom');
    assert.match(r.err, /^6 revisits written to .*changes\.csv$/m);
    assert.ok(readFileSync(file, 'utf8').startsWith(`\uFEFF${FIELDS.join(',')}\r\n`));
    assert.equal((await exp('--what', 'changes')).out, '');
    assert.equal(
      (await exp('--what', 'changes', '--format', 'csv')).out,
      `${FIELDS.join(',')}\r\n`,
    );
  });

  it('takes no flag of another table', async () => {
    await assert.rejects(run('--no-text'), {
      code: 'FC_ERR_CLI_USAGE',
      message: /--no-text applies to --what pages only/,
    });
    await assert.rejects(run('--state', 'complete'), {
      code: 'FC_ERR_CLI_USAGE',
      message: /--state applies to --what urls or pages only/,
    });
  });
});

describe('export: records and the formats XML, HTML, SQL and WARC', () => {
  let fields: string;
  let outDir: string;
  before(async () => {
    fields = await buildRecordStore();
    outDir = tempDir('export-formats');
  });
  const run = async (...argv: string[]) => {
    const io = captureIo();
    const code = await exportCommand(['--store', fields, ...argv], io);
    return { code, out: io.stdout(), err: io.stderr() };
  };

  it('--what records writes one JSON object per page and rule set', async () => {
    const r = await run('--what', 'records');
    assert.equal(r.code, 0, r.err);
    const rows = jsonl(r.out);
    assert.deepEqual(
      rows.map((x) => [x['url'], x['ruleSet']]),
      [
        [SAMPLE.home, 'article'],
        [SAMPLE.home, 'meta'],
        [SAMPLE.p1, 'article'],
      ],
    );
    assert.deepEqual((rows[0]?.['fields'] as Record<string, unknown> | undefined)?.['tags'], [
      'a',
      null,
      'c, d',
    ]);
  });

  it('takes the format from the --out extension, and names the rows', async () => {
    const cases: [string, string[], RegExp, RegExp][] = [
      ['r.xml', ['--what', 'records'], /^3 records written to /, /^<\?xml version="1\.0"/],
      ['p.html', ['--what', 'pages'], /^3 pages written to /, /^<!DOCTYPE html>/],
      ['p.htm', ['--what', 'links'], /^4 links written to /, /^<!DOCTYPE html>/],
      [
        'h.sql',
        ['--what', 'history'],
        /^4 fetches written to /,
        /^-- focuscrawl export for SQLite/,
      ],
      ['c.warc.gz', [], /^3 pages written to /, /^\x1f\x8b/],
      ['c.warc', ['--what', 'pages'], /^3 pages written to /, /^\x1f\x8b/],
    ];
    for (const [name, argv, message, start] of cases) {
      const file = join(outDir, name);
      const r = await run(...argv, '--out', file);
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, message, name);
      assert.match(readFileSync(file, 'latin1').slice(0, 40), start, name);
    }
  });

  it('SQL to standard output is the same script as the file, for either dialect', async () => {
    const file = join(outDir, 'pg.sql');
    await run('--what', 'records', '--format', 'sql', '--dialect', 'postgres', '--out', file);
    const r = await run('--what', 'records', '--format', 'sql', '--dialect', 'postgres');
    assert.equal(r.out, readFileSync(file, 'utf8'));
    assert.match(r.out, /^SET standard_conforming_strings = on;$/m);
    const lite = await run('--what', 'urls', '--format', 'sql');
    const db = new Database(':memory:');
    db.exec(lite.out);
    assert.equal(db.prepare('SELECT count(*) FROM urls').pluck().get(), 5);
    db.close();
  });

  it('HTML names the store in its title', async () => {
    const r = await run('--what', 'records', '--format', 'html');
    assert.ok(r.out.includes(`<title>focuscrawl export: records of ${fields}</title>`));
  });

  it('WARC goes to standard output as bytes when redirected', () => {
    const file = join(outDir, 'stdout.warc.gz');
    const code = `import { main } from './src/cli/index.ts';
process.exitCode = await main(['export', '--store', ${JSON.stringify(fields)}, '--format', 'warc']);`;
    const fd = openSync(file, 'w');
    try {
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        cwd: ROOT,
        stdio: ['ignore', fd, 'pipe'],
      });
    } finally {
      closeSync(fd);
    }
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    assert.equal(text.match(/^WARC\/1\.1\r$/gm)?.length, 7);
    assert.equal(text.match(/^WARC-Type: response\r$/gm)?.length, 3);
  });
});
