import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CliUsageError, StoreError } from '../../errors/index.js';
import { writeSyntheticCrawl } from '../../report/testing.js';
import { openStore, type Store } from '../../store/index.js';
import { reportCommand } from './report.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-report-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await reportCommand(argv, {
    out: (s) => {
      out += `${s}\n`;
    },
    err: (s) => {
      err += `${s}\n`;
    },
  });
  return { code, out, err };
}

const usage = (re: RegExp) => (e: unknown) => {
  assert.ok(e instanceof CliUsageError, `expected CliUsageError, got ${String(e)}`);
  assert.match(e.message, re);
  return true;
};

describe('focuscrawl report', () => {
  const dir = join(root, 'store');
  // A crawl still holding the store open for writing, as a running crawl would.
  let writer: Store;

  before(async () => {
    writer = await openStore(dir, { create: true });
    await writeSyntheticCrawl(writer, { outcomes: 120 });
  });
  after(() => writer.close());

  it('writes the report and says where and how big', async () => {
    const out = join(root, 'r.html');
    const r = await run('--store', dir, '--out', out, '--title', '电网 weekly', '--top', '5');
    assert.equal(r.code, 0, r.err);
    const size = statSync(out).size;
    assert.equal(r.out, `Report written to ${out} (${(size / 1024).toFixed(1)} KiB)\n`);
    const html = readFileSync(out, 'utf8');
    assert.match(html, /<h1>电网 weekly<\/h1>/);
    assert.ok(html.includes(`<dt>Store</dt><dd>${dir}</dd>`));
    const top = html.slice(
      html.indexOf('<section id="top">'),
      html.indexOf('<section id="hosts">'),
    );
    assert.equal(top.match(/<a href=/g)?.length, 5);
    assert.ok(!existsSync(`${out}.tmp`));
  });

  it('reads a store that a crawl keeps writing, and sees its progress', async () => {
    const out = join(root, 'live.html');
    await run('--store', dir, '--out', out);
    const before = readFileSync(out, 'utf8');
    await writeSyntheticCrawl(writer, { outcomes: 30, seed: 2 });
    await run('--store', dir, '--out', out);
    const after = readFileSync(out, 'utf8');
    const fetched = (html: string) => /<th>Docs fetched<\/th><td class="n">(\d+)/.exec(html)?.[1];
    assert.equal(fetched(before), '120');
    assert.equal(fetched(after), '150');
  });

  it('names the missing or malformed flag', async () => {
    const out = join(root, 'x.html');
    await assert.rejects(run('--out', out), usage(/--store is required/));
    await assert.rejects(run('--store', dir), usage(/--out is required/));
    await assert.rejects(run('--store', dir, '--out', out, '--top', 'ten'), usage(/--top expects/));
    await assert.rejects(run('--store', dir, '--out', out, '--title', ' '), usage(/--title/));
    await assert.rejects(run('--store', dir, '--out', out, '--colour', 'red'), usage(/colour/));
    await assert.rejects(run(dir, '--out', out), usage(/unexpected argument/));
    await assert.rejects(
      run('--store', dir, '--out', join(root, 'no', 'such', 'r.html')),
      usage(/--out .*does not exist/),
    );
    await assert.rejects(run('--store', dir, '--out', root), usage(/is a folder/));
    assert.ok(!existsSync(out));
  });

  it('does not take a mistyped store for an empty crawl', async () => {
    const out = join(root, 'missing.html');
    await assert.rejects(
      run('--store', join(root, 'nope'), '--out', out),
      (e) => e instanceof StoreError && /no store at/.test(e.message),
    );
    assert.ok(!existsSync(out));
    assert.ok(!existsSync(join(root, 'nope')), 'a read-only open creates nothing');
  });

  it('--help', async () => {
    const r = await run('--help');
    assert.equal(r.code, 0);
    assert.match(r.out, /^Usage: focuscrawl report --store DIR --out FILE\.html/);
  });
});
