// Every file a user writes, read by the loader its flag uses: the topic (`--topic`,
// loadTopicFile), extraction rules (`--rules`, loadRules: JSON or YAML), the site model
// (`--site-model`, loadSiteModel) and the link model (`--model-file`, readLinkModelFile).
// On arbitrary text, arbitrary JSON and valid files with parts replaced by arbitrary
// JSON, each loader either loads or throws its typed error naming the file: never a
// raw TypeError, SyntaxError or RangeError.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { ExtractRulesError, ModelFileError, TopicFileError } from '../../src/errors/index.js';
import { loadRules } from '../../src/extract/index.js';
import { loadTopicFile, readLinkModelFile, trainLinkModel } from '../../src/relevance/index.js';
import { loadSiteModel } from '../../src/sitemodel/index.js';
import { handModel } from '../../src/sitemodel/testing.js';
import { tempDir } from '../../src/util/testing.js';

const RUNS = 120;
const dir = tempDir('prop-files');

// ---- valid files, to mutate ----

const TOPIC = {
  name: 'telescopes',
  keywords: { telescope: 3, lens: 1.5, 望远镜: 2 },
  seeds: ['http://astro.test/'],
  threshold: 0.3,
  language: 'en',
  model: 'tfidf',
  idf: { telescope: 1.2, lens: 0.5 },
  documents: 40,
};
const RULES = JSON.parse(
  readFileSync(new URL('../../examples/jobs-rules.json', import.meta.url), 'utf8'),
) as unknown;
/** A valid site model (the hand-made one the site-model tests use). */
const SITE_MODEL = handModel();
const vec = (o: Record<string, number>) => new Map(Object.entries(o));
const LINK_MODEL = trainLinkModel(
  [vec({ telescope: 2, star: 1 }), vec({ telescope: 1, lens: 1 })],
  [vec({ bread: 1, oven: 1 }), vec({ bread: 1, telescope: 1 })],
  {},
  new Date(0),
).json as unknown;

// ---- mutation ----

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** All paths of a JSON value (the root included). */
function paths(v: Json, at: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(at);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) paths(v[i]!, [...at, i], out);
  } else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

/** `v` with the value at `path` replaced (or, with `remove`, deleted). */
function replaced(v: Json, path: Array<string | number>, by: Json, remove: boolean): Json {
  if (path.length === 0) return remove ? {} : by;
  const [head, ...rest] = path;
  if (Array.isArray(v)) {
    const copy = [...v];
    if (remove && rest.length === 0) copy.splice(head as number, 1);
    else copy[head as number] = replaced(copy[head as number]!, rest, by, remove);
    return copy;
  }
  const obj = { ...(v as Record<string, Json>) };
  if (remove && rest.length === 0) delete obj[head as string];
  else obj[head as string] = replaced(obj[head as string]!, rest, by, remove);
  return obj;
}

const edit = fc.record({
  at: fc.nat(),
  by: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
    fc.constantFrom<Json>(null, -1, 0, 1e308, -0.5, '', 'x', [], {}, true, '/a/{n}', 'NaN'),
  ),
  remove: fc.boolean(),
});

/** A valid document with 1 to 3 parts replaced or removed. */
function mutated(valid: unknown): fc.Arbitrary<Json> {
  return fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => {
    let v = valid as Json;
    for (const e of edits) {
      const all = paths(v);
      v = replaced(v, all[e.at % all.length]!, e.by, e.remove);
    }
    return v;
  });
}

/** File contents: arbitrary text, arbitrary JSON, or a mutated valid document. */
function contents(valid: unknown, yaml = false): fc.Arbitrary<string> {
  const docs = mutated(valid);
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.json({ maxDepth: 3 }),
    docs.map((d) => JSON.stringify(d)),
    docs.map((d) => JSON.stringify(d, null, 2).slice(0, -3)), // cut short
    ...(yaml ? [docs.map((d) => toYaml(d))] : []),
    fc.constantFrom('\uFEFF', '\uFEFF{}', '[]', 'null', '0', '"x"', '{"a":1,"a":2}', '{', 'NaN'),
  );
}

/** Writes `text` to `name` in the test folder and checks the loader's outcome. */
async function loadsOrTypedError(
  name: string,
  text: string,
  load: (file: string) => unknown,
  typed: abstract new (...args: never[]) => Error,
): Promise<void> {
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    await load(file);
  } catch (e) {
    assert.ok(
      e instanceof typed,
      `${name}: not a ${typed.name}: ${String(e)}\n${text.slice(0, 300)}`,
    );
    assert.ok(e.message.includes(file), `${name}: the message names the file: ${e.message}`);
  }
}

describe('files a user writes: load or a typed error naming the file', () => {
  test('topic (--topic)', async () => {
    await fc.assert(
      fc.asyncProperty(contents(TOPIC), (text) =>
        loadsOrTypedError('topic.json', text, loadTopicFile, TopicFileError),
      ),
      { numRuns: RUNS },
    );
  });

  test('extraction rules (--rules), JSON and YAML', async () => {
    await fc.assert(
      fc.asyncProperty(
        contents(RULES, true),
        fc.constantFrom('rules.json', 'rules.yaml', 'rules.txt'),
        (text, name) => loadsOrTypedError(name, text, loadRules, ExtractRulesError),
      ),
      { numRuns: RUNS * 2 },
    );
  });

  test('site model (--site-model)', async () => {
    await fc.assert(
      fc.asyncProperty(contents(SITE_MODEL), (text) =>
        loadsOrTypedError('site-model.json', text, loadSiteModel, ModelFileError),
      ),
      { numRuns: RUNS },
    );
  });

  test('link model (--model-file)', async () => {
    await fc.assert(
      fc.asyncProperty(contents(LINK_MODEL), (text) =>
        loadsOrTypedError('model.json', text, readLinkModelFile, ModelFileError),
      ),
      { numRuns: RUNS },
    );
  });

  test('the valid files load (so the mutations start from a valid document)', async () => {
    for (const [name, doc, load] of [
      ['topic.json', TOPIC, loadTopicFile],
      ['rules.json', RULES, loadRules],
      ['site-model.json', SITE_MODEL, loadSiteModel],
      ['model.json', LINK_MODEL, readLinkModelFile],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(doc));
      await (load as (f: string) => unknown)(file);
    }
  });
});
