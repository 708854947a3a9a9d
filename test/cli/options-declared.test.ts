// Each option declared once: every option of the crawl's and the fetcher's schemas is
// read by the code, every flag of `crawl` and `compare` sets an option of those schemas,
// and the docs' option and flag tables name the same options and flags, with the
// defaults the schemas (and the flag table built from them) give.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { parseFlags } from '../../src/cli/args.js';
import { compareCommandFlags } from '../../src/cli/commands/compare.js';
import { crawlCommandFlags } from '../../src/cli/commands/crawl.js';
import { CRAWL_FLAGS, crawlFlagsHelp, crawlOptionsFromFlags } from '../../src/cli/crawl-flags.js';
import { FETCH_FLAGS, fetcherOptionsFromFlags } from '../../src/cli/fetch-flags.js';
import { companionsOf } from '../../src/cli/flag-checks.js';
import type { FlagDef } from '../../src/cli/flags.js';
import { crawlOptionsSchema, strategyOptionsSchema } from '../../src/crawl/index.js';
import { DEFAULT_ADAPT_INTERVAL_PAGES, parseCrawlOptions } from '../../src/crawl/options.js';
import { fetcherOptionsSchema } from '../../src/fetch/index.js';
import { DEFAULT_STRATEGY_OPTIONS } from '../../src/frontier/index.js';
import { ADAPT_DEFAULTS, THRESHOLD_DEFAULTS } from '../../src/relevance/index.js';

const ROOT = join(import.meta.dirname, '..', '..');

type Shape = Record<string, unknown>;
const crawlShape = crawlOptionsSchema.shape as Shape;
const fetcherShape = fetcherOptionsSchema.shape as Shape;
const strategyShape = strategyOptionsSchema.shape as Shape;
/** The fields of `adaptTopic`'s object form. */
const adaptShape = (() => {
  const union = (crawlShape['adaptTopic'] as { unwrap: () => { options: unknown[] } }).unwrap();
  const object = union.options.find((s) => (s as { shape?: Shape }).shape !== undefined);
  return (object as { shape: Shape }).shape;
})();
/** The parameters of the iterative and adaptive thresholds. */
const thresholdParams = new Set([
  ...Object.keys(THRESHOLD_DEFAULTS.iterative),
  ...Object.keys(THRESHOLD_DEFAULTS.adaptive),
]);

// --- Every option is read by the code. ---

/** A property read: `receiver.name`, `receiver['name']` or `const { name } = receiver`. */
interface Read {
  receiver: string;
  name: string;
}

/** The property reads of TypeScript `code` (comments and strings are not code). */
function readsOf(code: string): Read[] {
  const sf = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false);
  const out: Read[] = [];
  const bound = (pattern: ts.ObjectBindingPattern, receiver: string) => {
    for (const e of pattern.elements) {
      const key = e.propertyName ?? e.name;
      if (ts.isIdentifier(key)) out.push({ receiver, name: key.text });
    }
  };
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n)) {
      out.push({ receiver: n.expression.getText(sf), name: n.name.text });
    } else if (ts.isElementAccessExpression(n) && ts.isStringLiteral(n.argumentExpression)) {
      out.push({ receiver: n.expression.getText(sf), name: n.argumentExpression.text });
    } else if (ts.isVariableDeclaration(n) && ts.isObjectBindingPattern(n.name) && n.initializer) {
      bound(n.name, n.initializer.getText(sf));
    } else if (ts.isParameter(n) && ts.isObjectBindingPattern(n.name)) {
      bound(n.name, '(parameter)');
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The property reads of the non-test TypeScript sources under `dirs`, but `skip`. */
function readsUnder(dirs: string[], skip: string): Read[] {
  const out: Read[] = [];
  for (const dir of dirs) {
    for (const name of readdirSync(join(ROOT, dir), { recursive: true }) as string[]) {
      const file = join(dir, name);
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === skip) continue;
      out.push(...readsOf(readFileSync(join(ROOT, file), 'utf8')));
    }
  }
  return out;
}

/** Crawl options are read off the options object: `o`, `this.#o`, `input`, `options`. */
const OPTIONS_OBJECT = /(^|\.)(#?o|input|options)$/;

describe('every option of a schema is read by the code', () => {
  const sets: [name: string, keys: string[], dirs: string[], skip: string, receiver?: RegExp][] = [
    ['crawl', Object.keys(crawlShape), ['src/crawl'], 'src/crawl/options.ts', OPTIONS_OBJECT],
    [
      'strategyOptions',
      Object.keys(strategyShape),
      ['src/frontier', 'src/crawl'],
      'src/crawl/options.ts',
    ],
    ['adaptTopic', Object.keys(adaptShape), ['src/crawl', 'src/relevance'], 'src/crawl/options.ts'],
    ['fetcher', Object.keys(fetcherShape), ['src/fetch'], 'src/fetch/options.ts'],
  ];
  for (const [name, keys, dirs, skip, receiver] of sets) {
    it(`${name} options`, () => {
      const reads = readsUnder(dirs, skip).filter((r) => receiver?.test(r.receiver) ?? true);
      const read = new Set(reads.map((r) => r.name));
      const unread = keys.filter((k) => !read.has(k));
      assert.deepEqual(
        unread,
        [],
        `${name} options that nothing in ${dirs.join(', ')} reads (remove them, or read them): ${unread.join(', ')}`,
      );
    });
  }

  it('the check sees reads, not mentions', () => {
    const names = (code: string) =>
      readsOf(code)
        .filter((r) => OPTIONS_OBJECT.test(r.receiver))
        .map((r) => r.name);
    assert.deepEqual(names('if (this.#o.maxPages > 1) f(o["scope"]);'), ['maxPages', 'scope']);
    assert.deepEqual(names('const { signal, thread: t } = input;'), ['signal', 'thread']);
    assert.deepEqual(names('// o.maxDepth\nconst s = "o.maxFrontier"; x.dedup = y.o;'), []);
  });
});

// --- Every flag sets an option. ---

/** Whether `path` (`strategyOptions.width`) names an option of the schemas. */
function optionExists(path: string, top: Shape): boolean {
  const [head, field, ...rest] = path.split('.');
  if (head === undefined || !(head in top) || rest.length > 0) return false;
  if (field === undefined) return true;
  if (top !== crawlShape) return false;
  const nested: Record<string, Shape | Set<string>> = {
    strategyOptions: strategyShape,
    adaptTopic: adaptShape,
    fetcher: fetcherShape,
    threshold: thresholdParams,
  };
  const n = nested[head];
  return n instanceof Set ? n.has(field) : n !== undefined && field in n;
}

function get(o: unknown, path: string): unknown {
  let v = o;
  for (const k of path.split('.')) v = (v as Record<string, unknown> | undefined)?.[k];
  return v;
}

/** Values to try flags without a default with. */
const SAMPLES: Record<string, string> = {
  'url-timeout-ms': '90000',
  threshold: '0.2',
  strategy: 'bfs',
  model: 'tfidf',
  'model-file': 'model.json',
  'page-model': 'tfidf',
  'learn-every': '5',
  'context-chars': '40',
  'max-pages': '10',
  'priority-gap': '0.1',
  'max-depth': '3',
  duration: '90s',
  include: 'a',
  exclude: 'b',
  'site-model': 'site.json',
  extract: 'rules.json',
  'max-frontier': '100',
  'retry-errors': 'all',
  resolve: 'a.test=127.0.0.1:1',
  proxy: 'http://127.0.0.1:3128/',
  'ca-file': 'ca.pem',
};

/** A command line giving flag `d` (a switch, a sample value or its default). */
function argvFor(d: FlagDef): string[] {
  // What the flag needs beside it (`--width` → `--strategy fish`): flag-checks.ts.
  const needs = (value: string | true) =>
    Object.entries(companionsOf({ [d.flag]: value })).flatMap(([f, v]) =>
      v === true ? [`--${f}`] : [`--${f}`, v],
    );
  if (d.arg === undefined) return [...needs(true), `--${d.flag}`];
  const value = SAMPLES[d.flag] ?? d.default;
  assert.ok(value !== undefined, `--${d.flag} has no default: give it a value in SAMPLES`);
  const field = d.option.startsWith('threshold.') ? d.option.slice('threshold.'.length) : '';
  const kind = field in THRESHOLD_DEFAULTS.iterative ? 'iterative' : 'adaptive';
  return [...(field === '' ? [] : ['--threshold', kind]), ...needs(value), `--${d.flag}`, value];
}

describe('every flag sets an option of the schemas', () => {
  const base = ['--store', 'dir', '--topic', 'topic.json'];
  for (const d of CRAWL_FLAGS) {
    it(`--${d.flag} sets ${d.option}`, () => {
      assert.ok(optionExists(d.option, crawlShape), `--${d.flag}: no crawl option ${d.option}`);
      const argv = [...base, ...argvFor(d)];
      const o = crawlOptionsFromFlags(parseFlags('crawl', argv, crawlCommandFlags));
      assert.notEqual(get(o, d.option), undefined, `--${d.flag} set nothing at ${d.option}`);
      parseCrawlOptions(o);
    });
  }
  for (const d of FETCH_FLAGS) {
    it(`--${d.flag} sets fetcher.${d.option}`, () => {
      assert.ok(optionExists(d.option, fetcherShape), `--${d.flag}: no fetcher option ${d.option}`);
      const o = fetcherOptionsFromFlags(parseFlags('inspect', argvFor(d), crawlCommandFlags), 'x');
      assert.notEqual(get(o, d.option), undefined, `--${d.flag} set nothing at ${d.option}`);
      fetcherOptionsSchema.parse(o);
    });
  }

  it("the commands' other flags are their own (store, topic, seeds, output)", () => {
    const table = new Set([...CRAWL_FLAGS, ...FETCH_FLAGS].map((d) => d.flag));
    const own = (spec: object) => Object.keys(spec).filter((f) => !table.has(f));
    assert.deepEqual(own(crawlCommandFlags).sort(), [
      'config',
      'help',
      'json-log',
      'log-file',
      'log-level',
      'progress-every',
      'quiet',
      'seeds',
      'serve',
      'store',
      'topic',
      'verbose',
    ]);
    assert.deepEqual(own(compareCommandFlags).sort(), [
      'budgets',
      'help',
      'json',
      'labels',
      'out-dir',
      'quiet',
      'runs',
      'seeds',
      'set',
      'title',
      'topic',
      'topic-id',
    ]);
    for (const o of ['store', 'topic', 'seeds']) assert.ok(o in crawlShape);
  });

  it('the help shows every flag, with its default', () => {
    const help = crawlFlagsHelp.replace(/\s+/g, ' ');
    for (const d of CRAWL_FLAGS) {
      assert.match(crawlFlagsHelp, new RegExp(`^  --${d.flag}(\\s|$)`, 'm'));
      if (d.default !== undefined) assert.ok(help.includes(`(default ${d.default})`), d.flag);
    }
  });
});

// --- The docs' tables agree with the schemas and the flags. ---

/** The rows (cells) of the first table of the `##` section whose heading contains `heading`. */
function docTable(doc: string, heading: string): string[][] {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  const start = text.split('\n').findIndex((l) => l.startsWith('## ') && l.includes(heading));
  assert.ok(start >= 0, `docs/${doc}: no section "${heading}"`);
  const rows: string[][] = [];
  for (const line of text.split('\n').slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
  }
  return rows.slice(2);
}

const spans = (cell: string) => [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1] as string);

/** Checks a docs flag table against `defs` and `own` (flags declared elsewhere). */
function checkFlagTable(rows: string[][], defs: readonly FlagDef[], own: string[]): void {
  const documented = new Map<string, string>();
  for (const [flags = '', defaults = ''] of rows) {
    const names = [...flags.matchAll(/--([a-z0-9-]+)/g)].map((m) => m[1] as string);
    const values = spans(defaults);
    names.forEach((n, i) => {
      documented.set(
        n,
        names.length > 1 && values.length === names.length ? `\`${values[i]}\`` : defaults,
      );
    });
  }
  const declared = [...defs.map((d) => d.flag), ...own].sort();
  assert.deepEqual([...documented.keys()].sort(), declared, 'documented flags ≠ declared flags');
  for (const d of defs) {
    if (d.default === undefined) continue;
    const cell = documented.get(d.flag) ?? '';
    assert.ok(
      cell.includes(`\`${d.default}\``),
      `--${d.flag}: the docs say ${cell}, the default is ${d.default}`,
    );
  }
}

/** Checks a docs option table against a schema's keys and defaults. */
function checkOptionTable(
  rows: string[][],
  keys: string[],
  defaults: Record<string, unknown>,
): void {
  const documented = new Map<string, string>();
  for (const [names = '', def = ''] of rows) for (const n of spans(names)) documented.set(n, def);
  assert.deepEqual([...documented.keys()].sort(), [...keys].sort(), 'documented options ≠ schema');
  for (const k of keys) {
    const v = defaults[k];
    if (v === undefined || (typeof v === 'object' && Object.keys(v as object).length > 0)) continue;
    const shown = typeof v === 'object' ? [JSON.stringify(v)] : [`${v}`, `'${v}'`];
    const cell = documented.get(k) ?? '';
    assert.ok(
      shown.some((s) => cell.includes(`\`${s}\``)),
      `${k}: the docs say ${cell}, the schema's default is ${JSON.stringify(v)}`,
    );
  }
}

describe("the docs' tables agree with the schemas and the flags", () => {
  it('docs/cli.md: the flags of crawl and their defaults', () => {
    checkFlagTable(docTable('cli.md', '`focuscrawl crawl`'), CRAWL_FLAGS, [
      'store',
      'config',
      'topic',
      'seeds',
      'quiet',
      'json-log',
      'log-level',
      'verbose',
      'log-file',
      'progress-every',
      'serve',
    ]);
  });

  it('docs/cli.md: the fetcher flags and their defaults', () => {
    checkFlagTable(docTable('cli.md', 'Fetcher flags'), FETCH_FLAGS, []);
  });

  it('docs/crawl.md: the crawl options and their defaults', () => {
    const rows = docTable('crawl.md', 'Options');
    // store and topic are required: their values here are no defaults.
    const {
      store: _s,
      topic: _t,
      ...defaults
    } = crawlOptionsSchema.parse({ store: '-', topic: '-' });
    checkOptionTable(rows, Object.keys(crawlShape), defaults);
    // The nested options' defaults, written `name (value)` in their rows.
    const row = (name: string) => rows.find((r) => r[0] === `\`${name}\``)?.join(' | ') ?? '';
    for (const [k, v] of Object.entries(DEFAULT_STRATEGY_OPTIONS)) {
      assert.ok(row('strategyOptions').includes(`\`${k}\` (${v}`), `strategyOptions.${k}: ${v}`);
    }
    const adapt = { intervalPages: DEFAULT_ADAPT_INTERVAL_PAGES, ...ADAPT_DEFAULTS };
    assert.deepEqual(Object.keys(adapt).sort(), Object.keys(adaptShape).sort());
    for (const [k, v] of Object.entries(adapt)) {
      assert.ok(row('adaptTopic').includes(`${k} (${v})`), `adaptTopic.${k}: ${v}`);
    }
  });

  it('docs/fetch.md: the fetcher options and their defaults', () => {
    checkOptionTable(
      docTable('fetch.md', 'Options'),
      Object.keys(fetcherShape),
      fetcherOptionsSchema.parse({}),
    );
  });
});
