// Every command given what a user gets wrong: a missing folder, a folder where a file
// should be, a store it may not write (or read), a port in use, a closed output pipe
// (`| head`), a mistyped or negative flag. Each runs the real CLI in a child process;
// each must end with its documented exit status, name the flag or the file in its
// message, and print no stack trace.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/store/index.js';
import { labels } from '../../src/testweb/index.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const childOf = (repo: string) => join(repo, 'test', 'crawl', 'cli-child.ts');

/** Runs as root: permission cases then run as user `nobody`, whom root's modes do refuse. */
const ROOT_USER = process.getuid?.() === 0;
const NOBODY = 65534;

/**
 * Where `nobody` runs the CLI from: the repository when it may read it, else a copy in
 * a folder open to it (a clone under /root, or in a 0700 temporary folder, is closed to
 * other users): the sources, and node_modules hard-linked where the file system allows.
 */
function repoForNobody(): string {
  if (!ROOT_USER) return REPO;
  const needs = [childOf(REPO), join(REPO, 'node_modules', 'tsx', 'package.json')];
  const probe = spawnSync(
    process.execPath,
    ['-e', `for (const f of ${JSON.stringify(needs)}) require('node:fs').accessSync(f)`],
    { uid: NOBODY, gid: NOBODY, stdio: 'ignore' },
  );
  if (probe.status === 0) return REPO;
  const copy = mkdtempSync(join(tmpdir(), 'focuscrawl-as-nobody-'));
  chmodSync(copy, 0o755);
  for (const name of ['src', 'test', 'examples', 'package.json', 'tsconfig.json']) {
    cpSync(join(REPO, name), join(copy, name), { recursive: true });
  }
  try {
    execFileSync('cp', ['-al', join(REPO, 'node_modules'), join(copy, 'node_modules')]);
  } catch {
    rmSync(join(copy, 'node_modules'), { recursive: true, force: true });
    cpSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), { recursive: true });
  }
  return copy;
}
const NOBODY_REPO = repoForNobody();
const NOBODY_RULES = join(NOBODY_REPO, 'examples', 'jobs-rules.json');

interface Run {
  code: number | null;
  out: string;
  err: string;
}

interface RunOptions {
  /** Run as another user (`nobody`), for the permission cases. */
  other?: boolean;
  /** Close the reading end of standard output: at once, or after the first line. */
  closeOut?: 'at-once' | 'after-first-line';
}

/** `focuscrawl ARGS` from the sources in a child process. */
function cli(args: readonly string[], o: RunOptions = {}): Promise<Run> {
  const repo = o.other && ROOT_USER ? NOBODY_REPO : REPO;
  const child = spawn(process.execPath, ['--import', 'tsx', childOf(repo), ...args], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
    ...(o.other && ROOT_USER ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    err += s;
  });
  if (o.closeOut === 'at-once') child.stdout.destroy();
  else {
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      if (o.closeOut === 'after-first-line' && out.includes('\n')) child.stdout.destroy();
    });
  }
  return new Promise((resolve) => {
    child.once('close', (code) => resolve({ code, out, err }));
  });
}

/** A case of the walk: the command line, the exit status, what the message must name. */
interface Case {
  /** The command line; a function when it needs what the fixtures made (a port). */
  args: string[] | (() => string[]);
  code: number;
  /** Texts the standard error must contain (the flag, the file, the reason). */
  names: (string | RegExp | (() => string))[];
  options?: RunOptions;
}

const argsOf = (c: Case) => (typeof c.args === 'function' ? c.args() : c.args);

function check(r: Run, c: Case): void {
  const label = argsOf(c).join(' ');
  assert.doesNotMatch(r.err, /^\s+at /m, `${label}: a stack trace\n${r.err}`);
  assert.doesNotMatch(r.out, /^\s+at /m, `${label}: a stack trace on stdout`);
  assert.equal(r.code, c.code, `${label}: exit status\n${r.err}`);
  for (const n of c.names) {
    const want = typeof n === 'function' ? n() : n;
    if (typeof want === 'string') {
      assert.ok(r.err.includes(want), `${label}: "${want}" not in\n${r.err}`);
    } else assert.match(r.err, want, label);
  }
  // The error is one line: `CODE: message`.
  const lines = r.err.split('\n').filter((l) => /^FC_ERR_/.test(l));
  assert.equal(lines.length, 1, `${label}: one error line\n${r.err}`);
}

/** Runs the cases, a few children at a time, each a test named by its command line. */
function walk(title: string, cases: Case[]): void {
  describe(title, { concurrency: 3 }, () => {
    for (const c of cases) {
      const name = (typeof c.args === 'function' ? ['(port)'] : c.args)
        .join(' ')
        .replaceAll(root, 'DIR');
      it(`${name}${c.options?.other ? ' (as another user)' : ''}`, async () => {
        check(await cli(argsOf(c), c.options), c);
      });
    }
  });
}

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-bad-input-'));
// Readable by everyone: the other user's runs read its fixtures.
chmodSync(root, 0o755);
const at = (...p: string[]) => join(root, ...p);
/** A path in a folder that does not exist. */
const missing = (name: string) => at('missing', name);
const folder = at('folder');
const file = at('file.txt');
const topic = at('topic.json');
const labelsFile = at('labels.json');
const store = at('store');
const big = at('big');
const foreign = at('foreign');
const privateStore = at('private');
const readOnlyStore = at('read-only');
const nobodyStore = at('nobody');
const rootOnly = at('root-only');
const examples = at('examples');
let server: Server;
let busyPort = 0;

async function makeStore(dir: string, pages: number): Promise<void> {
  const s = await openStore(dir, { create: true });
  try {
    const url = (i: number) => `http://astro.test/page/${i}`;
    await s.addSeeds(Array.from({ length: pages }, (_, i) => url(i)));
    for (let done = 0; done < pages; ) {
      const claimed = await s.claim(500);
      if (claimed.length === 0) break;
      await s.commit(
        claimed.map((c) => ({
          url: c.url,
          state: 'complete' as const,
          result: {
            fetchedAt: 1_000,
            status: 200,
            bytes: 400,
            title: `Telescope page ${c.url}`,
            text: `The telescope observes distant galaxies in infrared light, page ${c.url}. `.repeat(
              4,
            ),
            relevance: 0.5,
          },
        })),
      );
      done += claimed.length;
    }
    await s.setMeta('runs', [{ startedAt: 1, endedAt: 2, fetched: pages, fullText: 'kept' }]);
  } finally {
    await s.close();
  }
}

before(async () => {
  mkdirSync(folder);
  writeFileSync(file, 'not a folder\n');
  writeFileSync(topic, JSON.stringify({ keywords: { telescope: 1 } }));
  writeFileSync(labelsFile, JSON.stringify(labels({ seed: 1, size: 'small' })));
  mkdirSync(examples);
  writeFileSync(join(examples, 'a.html'), '<title>Telescopes</title><p>telescope mirrors</p>');
  mkdirSync(foreign);
  writeFileSync(join(foreign, 'notes.md'), '# my notes\n');
  mkdirSync(rootOnly);
  await makeStore(store, 5);
  await makeStore(big, 3000);
  for (const dir of [privateStore, readOnlyStore, nobodyStore]) await makeStore(dir, 5);
  chmodSync(privateStore, 0o700);
  if (ROOT_USER) {
    chownSync(nobodyStore, NOBODY, NOBODY);
    for (const name of readdirSync(nobodyStore, { recursive: true }) as string[]) {
      chownSync(join(nobodyStore, name), NOBODY, NOBODY);
    }
  } else {
    // As an ordinary user the store is made read-only by its modes.
    chmodSync(readOnlyStore, 0o555);
    chmodSync(join(readOnlyStore, 'crawl.db'), 0o444);
    chmodSync(rootOnly, 0o555);
  }
  server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  busyPort = (server.address() as { port: number }).port;
});

after(() => {
  server.close();
  rmSync(root, { recursive: true, force: true });
  if (NOBODY_REPO !== REPO) rmSync(NOBODY_REPO, { recursive: true, force: true });
});

const seeds = ['--seeds', 'http://astro.test/'];

walk('a missing folder: the message names the file and, for what is written, the flag', [
  {
    args: ['crawl', '--store', at('c1'), '--topic', missing('t.json'), ...seeds],
    code: 1,
    names: [missing('t.json')],
  },
  {
    args: [
      'watch',
      '--store',
      at('w1'),
      '--topic',
      missing('t.json'),
      '--budget',
      '30/min',
      ...seeds,
    ],
    code: 1,
    names: [missing('t.json')],
  },
  { args: ['status', '--store', missing('s')], code: 1, names: ['FC_ERR_STORE', missing('s')] },
  { args: ['export', '--store', missing('s'), '--what', 'urls'], code: 1, names: [missing('s')] },
  {
    args: ['export', '--store', store, '--what', 'urls', '--out', missing('x.jsonl')],
    code: 2,
    names: [`--out ${missing('x.jsonl')}`, 'does not exist'],
  },
  {
    args: ['report', '--store', store, '--out', missing('r.html')],
    code: 2,
    names: [`--out ${missing('r.html')}`],
  },
  {
    args: ['report', '--store', missing('s'), '--out', at('r.html')],
    code: 1,
    names: [missing('s')],
  },
  { args: ['rank', '--store', missing('s')], code: 1, names: [missing('s')] },
  { args: ['search', '--store', missing('s'), 'telescope'], code: 1, names: [missing('s')] },
  {
    args: ['extract', '--store', store, '--rules', missing('r.json')],
    code: 1,
    names: [missing('r.json')],
  },
  {
    args: ['inspect', 'http://astro.test/', '--topic', missing('t.json')],
    code: 1,
    names: [missing('t.json')],
  },
  {
    args: ['topic', 'learn', '--positive', missing('p.txt')],
    code: 1,
    names: ['--positive', missing('p.txt')],
  },
  {
    args: ['train', '--positive', examples, '--negative', examples, '--out', missing('m.json')],
    code: 2,
    names: [`--out ${missing('m.json')}`],
  },
  {
    args: ['testweb', 'labels', '--out', missing('l.json')],
    code: 2,
    names: [`--out ${missing('l.json')}`],
  },
  {
    args: ['testweb', '--log', missing('log.jsonl')],
    code: 2,
    names: [`--log ${missing('log.jsonl')}`],
  },
  {
    args: ['evaluate', '--store', store, '--labels', missing('l.json')],
    code: 1,
    names: [missing('l.json')],
  },
  {
    args: [
      'compare',
      '--out-dir',
      at('cmp'),
      '--topic',
      missing('t.json'),
      '--labels',
      labelsFile,
      '--topic-id',
      'grid',
      '--max-pages',
      '5',
      '--runs',
      'bfs',
      ...seeds,
      '--quiet',
    ],
    code: 1,
    names: [missing('t.json')],
  },
  { args: ['site-model', 'show', missing('m.json')], code: 1, names: [missing('m.json')] },
  {
    args: ['site-model', 'learn', ...seeds, '--out', missing('m.json')],
    code: 2,
    names: [`--out ${missing('m.json')}`],
  },
]);

walk('a folder where a file should be, a file where a folder should be', [
  { args: ['crawl', '--store', at('c2'), '--topic', folder, ...seeds], code: 1, names: [folder] },
  {
    args: ['crawl', '--store', file, '--topic', topic, ...seeds],
    code: 1,
    names: [file, 'not a store'],
  },
  { args: ['status', '--store', file], code: 1, names: [file] },
  {
    args: ['export', '--store', store, '--what', 'urls', '--out', folder],
    code: 2,
    names: [`--out ${folder} is a folder`],
  },
  {
    args: ['report', '--store', store, '--out', folder],
    code: 2,
    names: [`--out ${folder} is a folder`],
  },
  { args: ['rank', '--store', file], code: 1, names: [file] },
  { args: ['search', '--store', file, 'telescope'], code: 1, names: [file] },
  { args: ['extract', '--store', store, '--rules', folder], code: 1, names: [folder] },
  { args: ['inspect', 'http://astro.test/', '--rules', folder], code: 1, names: [folder] },
  {
    args: ['topic', 'learn', '--positive', examples, '--expert', folder],
    code: 1,
    names: [folder],
  },
  {
    args: ['train', '--positive', examples, '--negative', examples, '--out', folder],
    code: 2,
    names: [`--out ${folder} is a folder`],
  },
  { args: ['testweb', 'labels', '--out', folder], code: 2, names: [`--out ${folder} is a folder`] },
  { args: ['testweb', '--log', folder], code: 2, names: [`--log ${folder} is a folder`] },
  { args: ['demo', '--dir', file, '--pages', '1'], code: 1, names: [`--dir ${file}`, 'ENOTDIR'] },
  { args: ['demo', 'jobs', '--dir', file, '--pages', '1'], code: 1, names: [`--dir ${file}`] },
  { args: ['evaluate', '--store', store, '--labels', folder], code: 1, names: [folder] },
  {
    args: [
      'evaluate',
      '--store',
      store,
      '--labels',
      labelsFile,
      '--topic',
      'grid',
      '--out',
      folder,
    ],
    code: 2,
    names: [`--out ${folder} is a folder`],
  },
  {
    args: [
      'compare',
      '--out-dir',
      file,
      '--topic',
      topic,
      '--labels',
      labelsFile,
      '--max-pages',
      '5',
      '--runs',
      'bfs',
      ...seeds,
    ],
    code: 2,
    names: [`--out-dir ${file} is a file`],
  },
  { args: ['site-model', 'show', folder], code: 1, names: [folder] },
  { args: ['site-model', 'test', folder, 'http://astro.test/'], code: 1, names: [folder] },
  {
    args: ['crawl', '--store', foreign, '--topic', topic, ...seeds],
    code: 1,
    names: [foreign, 'not a focuscrawl store and not empty', '"notes.md"'],
  },
]);

walk('a store this user may not write, or not read: a permission problem naming it', [
  ...['rank', 'extract', 'crawl', 'watch'].map(
    (cmd): Case => ({
      args: [
        cmd,
        '--store',
        readOnlyStore,
        ...(cmd === 'extract' ? ['--rules', NOBODY_RULES] : []),
        ...(cmd === 'crawl' || cmd === 'watch' ? ['--topic', topic, ...seeds] : []),
        ...(cmd === 'watch' ? ['--budget', '30/min'] : []),
      ],
      code: 1,
      names: ['FC_ERR_STORE', `the store ${readOnlyStore}`, /permission denied|read-only/],
      options: { other: true },
    }),
  ),
  ...(ROOT_USER
    ? [
        ['status'],
        ['export', '--what', 'urls'],
        ['search', 'telescope'],
        ['report', '--out', at('nobody.html')],
        ['evaluate', '--labels', labelsFile, '--topic', 'grid'],
        ['rank'],
      ].map(
        ([cmd, ...rest]): Case => ({
          args: [cmd as string, '--store', privateStore, ...rest],
          code: 1,
          names: [`cannot read the store ${privateStore}: permission denied`, 'mode 700'],
          options: { other: true },
        }),
      )
    : []),
  // The store is the user's, the folder written to is not.
  ...(ROOT_USER
    ? [
        {
          args: [
            'export',
            '--store',
            nobodyStore,
            '--what',
            'urls',
            '--out',
            join(rootOnly, 'x.csv'),
          ],
          code: 1,
          names: [`FC_ERR_IO: --out ${join(rootOnly, 'x.csv')}`, 'permission denied (EACCES)'],
          options: { other: true },
        },
        {
          args: ['report', '--store', nobodyStore, '--out', join(rootOnly, 'r.html')],
          code: 1,
          names: [`FC_ERR_IO: --out ${join(rootOnly, 'r.html')}`, 'permission denied (EACCES)'],
          options: { other: true },
        },
        {
          args: ['testweb', 'labels', '--out', join(rootOnly, 'l.json')],
          code: 1,
          names: [`FC_ERR_IO: --out ${join(rootOnly, 'l.json')}`, 'permission denied (EACCES)'],
          options: { other: true },
        },
      ]
    : []),
]);

walk('a port in use, a mistyped or negative flag, a mistyped command', [
  {
    args: () => ['testweb', '--port', String(busyPort)],
    code: 1,
    names: [
      () =>
        `FC_ERR_IO: --port ${busyPort}: cannot listen on 127.0.0.1:${busyPort}: the port is in use`,
    ],
  },
  { args: ['testweb', '--port', '70000'], code: 2, names: ['--port must be 0 … 65535'] },
  {
    args: ['crawl', '--stor', store],
    code: 2,
    names: ['unknown flag --stor: did you mean --store?'],
  },
  {
    args: ['status', '--store', store, '--top-host', '3'],
    code: 2,
    names: ['did you mean --top-hosts?'],
  },
  {
    args: ['crawl', '--store', at('c3'), '--topic', topic, ...seeds, '--max-pages', '-5'],
    code: 2,
    names: ['--max-pages expects a non-negative integer, got "-5"'],
  },
  {
    args: ['export', '--store', store, '--what', 'urls', '--state', 'complete', '-x'],
    code: 2,
    names: ['unknown flag -x'],
  },
  {
    args: ['status', '--store', store, '--top-pages', '-1'],
    code: 2,
    names: ['--top-pages', '"-1"'],
  },
  { args: ['stauts'], code: 2, names: ['unknown command "stauts": did you mean status?'] },
]);

describe('a closed output pipe (`| head`) ends the command quietly, with exit status 0', {
  concurrency: 3,
}, () => {
  const cases: [string[], 'at-once' | 'after-first-line'][] = [
    [['export', '--store', big, '--what', 'urls'], 'after-first-line'],
    [
      ['export', '--store', big, '--what', 'pages', '--state', 'complete', '--format', 'csv'],
      'after-first-line',
    ],
    [['search', '--store', big, '--limit', '1000', 'telescope'], 'after-first-line'],
    [['status', '--store', big], 'at-once'],
    [['rank', '--store', big], 'at-once'],
    [['testweb', 'labels'], 'at-once'],
    [['help'], 'at-once'],
    [['version'], 'at-once'],
  ];
  for (const [args, closeOut] of cases) {
    it(args.join(' ').replaceAll(root, 'DIR'), async () => {
      const r = await cli(args, { closeOut });
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, '', 'nothing said');
    });
  }
});

describe('messages name the flag a user types, not the option behind it', () => {
  it('a bad --include pattern is said to be --include, not include[0]', async () => {
    const r = await cli([
      'crawl',
      '--store',
      at('inc'),
      '--topic',
      topic,
      ...seeds,
      '--include',
      '(',
    ]);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /^FC_ERR_INVALID_OPTION: --include: "\(" is not a valid regular expression$/m,
    );
    assert.doesNotMatch(r.err, /include\[0\]/);
  });

  it('a --ca-file that cannot be read is refused naming the file, before the store is made', async () => {
    const store = at('ca-file');
    const missing = join(tmpdir(), 'focuscrawl-no-such-ca.pem');
    const r = await cli([
      'crawl',
      '--store',
      store,
      '--topic',
      topic,
      ...seeds,
      '--ca-file',
      missing,
    ]);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /--ca-file: cannot read the CA file .*focuscrawl-no-such-ca\.pem \(ENOENT\)/,
    );
    assert.throws(() => readdirSync(store), /ENOENT/, 'no store folder made');
  });

  it('a loopback address is refused naming --allow-private and --resolve', async () => {
    // Refused before any connection is made.
    const r = await cli(['inspect', 'http://127.0.0.1:9/', '--delay-ms', '0']);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out + r.err, /set --allow-private, or map the host with --resolve/);
    assert.doesNotMatch(r.out + r.err, /allowPrivateAddresses/);
  });
});
