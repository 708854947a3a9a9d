// The site model file: parsing with errors that name the file and the field, loading,
// writing.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  formatSiteModel,
  loadSiteModel,
  parseSiteModel,
  type SiteModel,
  writeSiteModel,
} from './index.js';
import { handModel } from './testing.js';

/** Edits a copy of the model as plain JSON data, as a person editing the file would. */
type Edit = (m: SiteModel) => void;
/** A field set to a value its type does not allow. */
const bad = <T>(v: unknown) => v as T;

function edited(edit: Edit): unknown {
  const m = JSON.parse(JSON.stringify(handModel())) as SiteModel;
  edit(m);
  return m;
}

describe('parseSiteModel', () => {
  it('accepts a valid model, as data or as JSON text', () => {
    assert.deepEqual(parseSiteModel(handModel(), 'site.json'), handModel());
    assert.deepEqual(parseSiteModel(formatSiteModel(handModel()), 'site.json'), handModel());
  });

  // [what, edit, message]
  const table: [string, Edit, string][] = [
    [
      'a decision that is neither',
      (m) => {
        m.clusters[2]!.decision = bad('maybe');
      },
      'site.json: clusters[2].decision: expected "valid" or "invalid"',
    ],
    [
      'a missing decision',
      (m) => {
        delete (m.clusters[0] as Partial<SiteModel['clusters'][0]>).decision;
      },
      'site.json: clusters[0].decision: expected "valid" or "invalid"',
    ],
    [
      'an unknown kind',
      (m) => {
        m.clusters[1]!.kind = bad('index');
      },
      'site.json: clusters[1].kind: expected "content", "list", "duplicate" or "no-content"',
    ],
    [
      'an unknown role',
      (m) => {
        m.clusters[0]!.patterns[1]!.role = bad('original');
      },
      'site.json: clusters[0].patterns[1].role: expected "content" or "duplicate"',
    ],
    [
      'another version',
      (m) => {
        m.version = bad(2);
      },
      'site.json: version: expected 1 (a site model of another version)',
    ],
    [
      'an unknown field',
      (m) => {
        (m.clusters[0] as Record<string, unknown>)['note'] = 'x';
      },
      'site.json: clusters[0]: unknown field "note"',
    ],
    [
      'a negative page count',
      (m) => {
        m.clusters[3]!.patterns[0]!.pages = -1;
      },
      'site.json: clusters[3].patterns[0].pages: Too small: expected number to be >=0',
    ],
    [
      'a bad date',
      (m) => {
        m.learnedAt = 'yesterday';
      },
      'site.json: learnedAt: expected a date and time (ISO 8601)',
    ],
    [
      'no host',
      (m) => {
        m.hosts = [];
      },
      'site.json: hosts: Too small: expected array to have >=1 items',
    ],
    [
      'a malformed pattern',
      (m) => {
        m.clusters[1]!.patterns[0]!.pattern = '/list/{id}';
      },
      'site.json: clusters[1].patterns[0].pattern: path segment 2: unknown placeholder {id} (known: {n}, {hex}, {date}, {w})',
    ],
    [
      'a pattern without its /',
      (m) => {
        m.clusters[1]!.patterns[0]!.pattern = 'list/{n}';
      },
      'site.json: clusters[1].patterns[0].pattern: a pattern starts with /',
    ],
    [
      'a duplicate without its original',
      (m) => {
        delete m.clusters[2]!.patterns[0]!.duplicateOf;
      },
      'site.json: clusters[2].patterns[0].duplicateOf: a duplicate names the pattern it duplicates',
    ],
    [
      'an original that is no pattern of the model',
      (m) => {
        m.clusters[2]!.patterns[0]!.duplicateOf = '/x/{n}';
      },
      'site.json: clusters[2].patterns[0].duplicateOf: "/x/{n}" is not a pattern of the model',
    ],
    [
      'a content pattern with an original',
      (m) => {
        m.clusters[1]!.patterns[0]!.duplicateOf = '/{w}/{n}';
      },
      'site.json: clusters[1].patterns[0].duplicateOf: only a duplicate has one (role is "content")',
    ],
    [
      'two clusters with one id',
      (m) => {
        m.clusters[3]!.id = 2;
      },
      'site.json: clusters[3].id: 2 is the id of clusters[1] too',
    ],
  ];
  for (const [what, edit, message] of table) {
    it(`refuses ${what}`, () => {
      assert.throws(() => parseSiteModel(edited(edit), 'site.json'), {
        name: 'ModelFileError',
        code: 'FC_ERR_MODEL_FILE',
        message,
      });
    });
  }

  it('refuses what is not JSON, with line and column', () => {
    assert.throws(() => parseSiteModel('{\n  "version": 1,\n  oops\n}', 'site.json'), {
      name: 'ModelFileError',
      message: /^site\.json: invalid JSON \(line 3, column 3\)/,
    });
    assert.throws(() => parseSiteModel('[1]', 'site.json'), /site\.json: not a site model/);
  });
});

describe('loadSiteModel and writeSiteModel', () => {
  let dir = '';
  after(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('write then load gives the model back', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sitemodel-'));
    const file = join(dir, 'site.json');
    await writeSiteModel(file, handModel());
    assert.deepEqual(await loadSiteModel(file), handModel());
  });

  it('names the file it cannot read or parse', async () => {
    dir = dir || (await mkdtemp(join(tmpdir(), 'sitemodel-')));
    const missing = join(dir, 'none.json');
    await assert.rejects(loadSiteModel(missing), {
      name: 'ModelFileError',
      message: `${missing}: cannot read the site model (no such file)`,
    });
    const broken = join(dir, 'bad.json');
    await writeFile(
      broken,
      JSON.stringify(
        edited((m) => {
          m.clusters[2]!.decision = bad('x');
        }),
      ),
    );
    await assert.rejects(loadSiteModel(broken), {
      message: `${broken}: clusters[2].decision: expected "valid" or "invalid"`,
    });
  });
});
