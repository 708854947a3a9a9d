// A crawl's settings live with its store: `crawl --store DIR` alone resumes with them,
// flags given on a resume override them and are shown as a change, a different topic
// is refused unless --new-topic, and a settings file and FOCUSCRAWL_* variables set
// flags too (command line > variables > file > store).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { crawlCommandFlags } from '../../src/cli/commands/crawl.js';
import { dropStaleStored } from '../../src/cli/crawl-settings.js';
import {
  commandLineLayer,
  configLayer,
  envLayer,
  type FlagValue,
  mergeLayers,
} from '../../src/cli/settings.js';
import { META_SETTINGS, META_TOPIC } from '../../src/crawl/index.js';
import { openStore } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { runCli } from '../run-cli.js';

let web: TestWeb;
const dir = tempDir('settings');
const t = labels({ seed: 1, size: 'small' }).topics.find((x) => x.id === 'monitor');
const topicFile = join(dir, 'monitor.json');
const otherTopic = join(dir, 'other.json');

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  assert.ok(t);
  writeFileSync(topicFile, JSON.stringify(t.topic));
  writeFileSync(otherTopic, JSON.stringify({ keywords: { football: 1, league: 0.5 } }));
});
after(async () => {
  await web.close();
});

const flags = () => [
  '--resolve',
  web.resolve,
  '--allow-private',
  '--delay-ms',
  '0',
  '--sitemaps',
  'none',
  '--quiet',
];

async function fetched(store: string): Promise<number> {
  const s = await openStore(store, { readonly: true });
  try {
    return (await s.stats()).responses;
  } finally {
    await s.close();
  }
}

describe('the store remembers its crawl', () => {
  const store = join(dir, 'remember');

  test('a first run records its flags and topic', async () => {
    const r = await runCli(
      'crawl',
      '--store',
      store,
      '--topic',
      topicFile,
      '--seeds',
      'http://portal.test/',
      '--max-pages',
      '20',
      ...flags(),
    );
    assert.equal(r.code, 0, r.err);
    const s = await openStore(store, { readonly: true });
    const rec = (await s.getMeta(META_SETTINGS)) as {
      flags: Record<string, unknown>;
      topicFile: string;
    };
    await s.close();
    assert.equal(rec.flags['max-pages'], '20');
    assert.deepEqual(rec.flags['resolve'], [web.resolve]);
    assert.equal(rec.flags['allow-private'], true);
    assert.equal(rec.flags['quiet'], undefined, 'output flags are not crawl settings');
    assert.equal(rec.topicFile, topicFile);
  });

  test('crawl --store alone resumes with them (the resolve map included)', async () => {
    const r = await runCli('crawl', '--store', store, '--max-pages', '35', '--quiet');
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /settings from the store: .*--resolve/);
    assert.match(
      r.err,
      /settings changed since the last run: --max-pages 20 → --max-pages 35 \(command line\)/,
    );
    // Without the stored --resolve every fetch would fail: pages were fetched.
    assert.equal(await fetched(store), 35);
  });

  test('a different topic on a resume is refused, naming --new-topic', async () => {
    const r = await runCli('crawl', '--store', store, '--topic', otherTopic, '--quiet');
    assert.equal(r.code, 1);
    assert.match(r.err, /FC_ERR_TOPIC_CHANGED: .*keywords added \(football, league\).*--new-topic/);
    assert.equal(await fetched(store), 35, 'nothing was crawled');
  });

  test('--new-topic crawls on with the new one', async () => {
    const r = await runCli(
      'crawl',
      '--store',
      store,
      '--topic',
      otherTopic,
      '--new-topic',
      '--max-pages',
      '40',
    );
    assert.equal(r.code, 0, r.err);
    const st = await openStore(store, { readonly: true });
    const topic = (await st.getMeta(META_TOPIC)) as { keywords: Record<string, number> };
    await st.close();
    assert.deepEqual(topic.keywords, { football: 1, league: 0.5 });
    assert.ok((await fetched(store)) > 35);
  });

  test('crawl --store DIR alone on a missing store asks for the topic', async () => {
    const r = await runCli('crawl', '--store', join(dir, 'none'), '--quiet');
    assert.equal(r.code, 2);
    assert.match(r.err, /--topic is required to start a crawl/);
  });
});

describe('settings file and environment variables', () => {
  test('a YAML settings file sets flags, with paths from its folder', async () => {
    const store = join(dir, 'configured');
    const file = join(dir, 'crawl.yaml');
    writeFileSync(
      file,
      [
        `store: configured`,
        `topic: monitor.json`,
        `seeds: [http://portal.test/]`,
        `resolve: ${JSON.stringify(web.resolve)}`,
        `allow-private: true`,
        `delay-ms: 0`,
        `sitemaps: none`,
        `max-pages: 12`,
        `quiet: true`,
      ].join('\n'),
    );
    const r = await runCli('crawl', '--config', file);
    assert.equal(r.code, 0, r.err);
    assert.equal(await fetched(store), 12);
  });

  test('an unknown key is refused with its line and the nearest key', () => {
    const file = join(dir, 'typo.yaml');
    writeFileSync(file, 'max-pages: 10\nmax-page: 5\n');
    assert.throws(
      () => configLayer(file, crawlCommandFlags, 'crawl'),
      /typo\.yaml line 2: unknown key "max-page" \(did you mean max-pages\?\)/,
    );
  });

  test('a bad value names the flag, the file and the line', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, `store: ${join(dir, 'bad')}\ntopic: monitor.json\n\nmax-pages: -5\n`);
    const r = await runCli('crawl', '--config', file, '--seeds', 'http://portal.test/');
    assert.equal(r.code, 2);
    assert.match(r.err, /--max-pages .*"-5".*\(--max-pages from .*bad\.yaml line 4\)/);
  });

  test('a switch given a text, a list for a one-value flag, JSON syntax errors', () => {
    const cases: [string, string, RegExp][] = [
      ['switch.yaml', 'quiet: yes please\n', /switch\.yaml line 1: quiet is a switch/],
      ['list.json', '{\n "max-pages": [1, 2]\n}\n', /list\.json line 2: max-pages takes one value/],
      ['syntax.json', '{\n "max-pages": 1,,\n}\n', /syntax\.json line 2: not valid JSON or YAML/],
      ['top.yaml', '- a\n- b\n', /top\.yaml line 1: expected keys named as the flags/],
    ];
    for (const [name, text, re] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      assert.throws(() => configLayer(file, crawlCommandFlags, 'crawl'), re, name);
    }
  });

  test('precedence: command line over FOCUSCRAWL_* over the file over the store', () => {
    const file = join(dir, 'prec.yaml');
    writeFileSync(file, 'max-pages: 10\ndelay-ms: 5\nconcurrency: 3\n');
    const fromEnv = envLayer(
      { FOCUSCRAWL_MAX_PAGES: '20', FOCUSCRAWL_DELAY_MS: '7', FOCUSCRAWL_NO_RANK: 'true' },
      crawlCommandFlags,
      'crawl',
    );
    const fromFile = configLayer(file, crawlCommandFlags, 'crawl');
    const cmd = commandLineLayer({ values: { 'max-pages': '30' }, positionals: [] });
    const store = { values: { concurrency: '9', 'user-agent': 'x' }, from: {} };
    const m = mergeLayers(cmd, fromEnv, fromFile, store);
    assert.deepEqual(
      [m.values['max-pages'], m.values['delay-ms'], m.values['concurrency'], m.values['no-rank']],
      ['30', '7', '3', true],
    );
    assert.equal(m.values['user-agent'], 'x');
    assert.equal(m.from['max-pages'], 'command line');
    assert.equal(m.from['delay-ms'], 'FOCUSCRAWL_DELAY_MS');
    assert.match(m.from['concurrency'] as string, /prec\.yaml line 3/);
  });

  test('recorded flags that the flags given now make idle are left out, with a note', () => {
    const cases: [Record<string, FlagValue>, Record<string, FlagValue>, string[], RegExp][] = [
      [
        { threshold: 'iterative', t0: '0.2' },
        { threshold: '0.3' },
        ['threshold'],
        /--t0 0\.2 \(recorded in the store\) left out: a new --threshold was given/,
      ],
      [
        { strategy: 'fish', width: '7' },
        { strategy: 'best-first' },
        ['strategy'],
        /--width 7 \(recorded in the store\) left out: --width is a constant of --strategy fish or shark/,
      ],
      [{ 'max-pages': '5' }, { 'delay-ms': '0' }, ['max-pages', 'delay-ms'], /^$/],
    ];
    for (const [recorded, now, kept, note] of cases) {
      const layer = mergeLayers(
        { values: now, from: Object.fromEntries(Object.keys(now).map((k) => [k, 'command line'])) },
        {
          values: recorded,
          from: Object.fromEntries(Object.keys(recorded).map((k) => [k, 'the store'])),
        },
      );
      const notes: string[] = [];
      dropStaleStored(layer, notes);
      assert.deepEqual(Object.keys(layer.values).sort(), kept.sort());
      assert.match(notes.join('\n'), note);
    }
  });

  test('a FOCUSCRAWL_* switch that is not a yes or no is refused, naming the variable', () => {
    assert.throws(
      () => envLayer({ FOCUSCRAWL_NO_RANK: 'maybe' }, crawlCommandFlags, 'crawl'),
      /FOCUSCRAWL_NO_RANK must be 1, true, .* \(it sets --no-rank\)/,
    );
  });
});
