import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { isFocusCrawlError } from '../errors/index.js';
import { tempDir } from '../util/testing.js';
import { extractPage, loadRules, parseRules } from './index.js';

const JSON_RULES = `{
  "version": 1,
  "ruleSets": [
    {
      "name": "jobs",
      "urls": "^https?://jobs\\\\.test/job/\\\\d+$",
      "fields": {
        "title": { "css": "h1", "required": true },
        "salary": { "css": ".salary", "type": "money" },
        "description": { "between": { "start": "职位描述", "end": "申请这个职位" }, "required": true },
        "posted": { "meta": "article:published_time", "type": "date" },
        "company": { "jsonld": "hiringOrganization.name", "jsonldType": "JobPosting" },
        "id": { "regex": "/job/(?<id>\\\\d+)", "over": "url", "type": "number" }
      }
    }
  ]
}
`;

const YAML_RULES = `version: 1
ruleSets:
  - name: jobs
    urls: ^https?://jobs\\.test/job/\\d+$
    fields:
      title: { css: h1, required: true }
      salary:
        css: .salary
        type: money
      description:
        between: { start: 职位描述, end: 申请这个职位 }
        required: true
      posted: { meta: "article:published_time", type: date }
      company: { jsonld: hiringOrganization.name, jsonldType: JobPosting }
      id: { regex: "/job/(?<id>\\\\d+)", over: url, type: number }
`;

/** JSON_RULES with the salary line replaced (it is line 9). */
const withSalary = (line: string) =>
  JSON_RULES.replace(/^ {8}"salary": .*$/m, `        "salary": ${line},`);

/** YAML_RULES with the salary entry (lines 7–9) replaced. */
const withYamlSalary = (lines: string) =>
  YAML_RULES.replace(/^ {6}salary:\n(?: {8}.*\n)+/m, `      salary:\n${lines}`);

function fails(text: string, file: string, parts: (string | RegExp)[]): void {
  assert.throws(
    () => parseRules(text, file),
    (e: unknown) => {
      assert.ok(isFocusCrawlError(e));
      assert.equal(e.code, 'FC_ERR_EXTRACT_RULES');
      assert.equal(e.name, 'ExtractRulesError');
      for (const p of parts) {
        if (typeof p === 'string') assert.ok(e.message.includes(p), `${e.message}\n  lacks ${p}`);
        else assert.match(e.message, p);
      }
      return true;
    },
  );
}

const FIELD = 'rule set "jobs", field "salary"';

describe('rule files', () => {
  test('JSON and YAML give the same rules', () => {
    const a = parseRules(JSON_RULES, 'jobs.json');
    const b = parseRules(YAML_RULES, 'jobs.yaml');
    const plain = (r: typeof a) =>
      JSON.parse(
        JSON.stringify(r, (k, v) =>
          k === 'file' || k === 'query' ? undefined : v instanceof RegExp ? String(v) : v,
        ),
      );
    assert.deepEqual(plain(a), plain(b));
    assert.equal(a.ruleSets[0]!.fields.length, 6);
    const id = a.ruleSets[0]!.fields.find((f) => f.name === 'id')!;
    assert.deepEqual(
      { ...id, source: { ...id.source, re: String((id.source as { re: RegExp }).re) } },
      {
        name: 'id',
        source: { kind: 'regex', re: '/\\/job\\/(?<id>\\d+)/g', group: 'id', over: 'url' },
        required: false,
        multiple: false,
        type: 'number',
        trim: true,
        currency: undefined,
      },
    );
    const page = { url: 'http://jobs.test/job/7', html: '<h1>T</h1>' };
    assert.deepEqual(extractPage(a, page), extractPage(b, page));
  });

  test('the syntax follows the name: .json, .yaml/.yml, else the first character', () => {
    assert.equal(parseRules(YAML_RULES, 'jobs.yml').ruleSets[0]!.name, 'jobs');
    assert.equal(parseRules(YAML_RULES, 'jobs.rules').ruleSets[0]!.name, 'jobs');
    assert.equal(parseRules(JSON_RULES, 'jobs.rules').ruleSets[0]!.name, 'jobs');
    fails(YAML_RULES, 'jobs.json', ['jobs.json:1:1: JSON syntax error']);
  });

  test('loadRules reads a file; an unreadable one is named', async () => {
    const dir = tempDir('extract');
    const file = join(dir, 'jobs.yaml');
    writeFileSync(file, `\uFEFF${YAML_RULES}`);
    const rules = await loadRules(file);
    assert.equal(rules.file, file);
    assert.equal(rules.ruleSets[0]!.name, 'jobs');
    await assert.rejects(loadRules(join(dir, 'none.json')), (e: Error) => {
      assert.ok(isFocusCrawlError(e) && e.code === 'FC_ERR_EXTRACT_RULES');
      assert.match(e.message, /none\.json: cannot read the rule file: ENOENT/);
      return true;
    });
  });
});

describe('bad rule files name the file, line, rule set and field', () => {
  const cases: [string, string, string, (string | RegExp)[]][] = [
    [
      'JSON syntax error',
      'r.json',
      withSalary('{ "css": ".salary" "type": "money" }'),
      ['r.json:9:38: ', FIELD, "JSON syntax error: Expected ',' or '}' after property value"],
    ],
    [
      'YAML syntax error',
      'r.yaml',
      withYamlSalary('        css: [.salary\n        type: money\n'),
      ['r.yaml:9:9: ', FIELD, 'YAML syntax error: Flow sequence in block collection'],
    ],
    [
      'unknown key (JSON)',
      'r.json',
      withSalary('{ "csss": ".salary" }'),
      ['r.json:9:21: ', FIELD, 'unknown key "csss"', '(ruleSets[0].fields.salary.csss)'],
    ],
    [
      'unknown key (YAML)',
      'r.yaml',
      withYamlSalary('        css: .salary\n        typ: money\n'),
      ['r.yaml:9:9: ', FIELD, 'unknown key "typ"'],
    ],
    [
      'two source kinds in one field',
      'r.json',
      withSalary('{ "css": ".salary", "regex": "(?<s>\\\\d+)" }'),
      ['r.json:9:39: ', FIELD, 'two source kinds, "css" and "regex": give exactly one per field'],
    ],
    [
      'no source kind',
      'r.yaml',
      withYamlSalary('        type: money\n'),
      ['r.yaml:7:7: ', FIELD, 'no source: give one of between, css, regex, meta, jsonld'],
    ],
    [
      'bad regex',
      'r.json',
      withSalary('{ "regex": "(?<s>\\\\d+" }'),
      ['r.json:9:21: ', FIELD, 'bad regular expression "(?<s>\\\\d+": Invalid regular expression'],
    ],
    [
      'regex without a named group',
      'r.yaml',
      withYamlSalary('        regex: "(\\\\d+)k"\n'),
      ['r.yaml:8:9: ', FIELD, 'regex has no named group: write the part to keep as (?<name>…)'],
    ],
    [
      'regex with two named groups',
      'r.json',
      withSalary('{ "regex": "(?<lo>\\\\d+)-(?<hi>\\\\d+)" }'),
      ['r.json:9:21: ', FIELD, 'regex has 2 named groups ("lo", "hi"): give exactly one'],
    ],
    [
      'a flag that is not allowed',
      'r.json',
      withSalary('{ "regex": "(?<s>\\\\d+)", "flags": "gi" }'),
      ['r.json:9:44: ', FIELD, 'flag "g" is not allowed'],
    ],
    [
      'bad CSS selector',
      'r.json',
      withSalary('{ "css": "div[" }'),
      ['r.json:9:21: ', FIELD, 'bad CSS selector "div["'],
    ],
    [
      'an option of another source kind',
      'r.json',
      withSalary('{ "css": ".salary", "over": "html" }'),
      ['r.json:9:39: ', FIELD, '"over" goes with "between" or "regex", not "css"'],
    ],
    [
      'currency without type money',
      'r.yaml',
      withYamlSalary('        css: .salary\n        currency: CNY\n'),
      ['r.yaml:9:9: ', FIELD, '"currency" goes with type "money", not "string"'],
    ],
    [
      'an unknown type',
      'r.json',
      withSalary('{ "css": ".salary", "type": "cash" }'),
      ['r.json:9:39: ', FIELD, '"cash"', '(ruleSets[0].fields.salary.type)'],
    ],
    [
      'a between without its end',
      'r.json',
      withSalary('{ "between": { "start": "薪资" } }'),
      ['r.json:9:21: ', FIELD, 'missing key "end"', '(ruleSets[0].fields.salary.between.end)'],
    ],
    [
      'a blank marker',
      'r.json',
      withSalary('{ "between": { "start": " ", "end": "x" } }'),
      ['r.json:9:', FIELD, 'expected a marker that is not blank'],
    ],
    [
      'occurrence all with multiple false',
      'r.json',
      withSalary(
        '{ "between": { "start": "a", "end": "b", "occurrence": "all" }, "multiple": false }',
      ),
      ['r.json:9:', FIELD, 'occurrence "all" gives every value: "multiple" cannot be false'],
    ],
    [
      'a field given twice (JSON)',
      'r.json',
      withSalary('{ "css": ".salary" }').replace('"salary": {', '"title": {'),
      ['r.json:9:9: ', 'rule set "jobs", field "title"', 'key "title" given twice'],
    ],
    [
      'a field given twice (YAML)',
      'r.yaml',
      YAML_RULES.replace('      salary:', '      title:'),
      [
        'r.yaml:7:7: ',
        'rule set "jobs", field "title"',
        'YAML syntax error: Map keys must be unique',
      ],
    ],
    [
      'a bad urls pattern',
      'r.json',
      JSON_RULES.replace(/"urls": ".*"/, '"urls": ["^http://a\\\\.test/", "(x"]'),
      ['r.json:6:37: ', 'rule set "jobs": bad regular expression "(x"', '(ruleSets[0].urls[1])'],
    ],
    [
      'two rule sets with one name',
      'r.yaml',
      `${YAML_RULES}  - name: jobs\n    urls: x\n    fields: { a: { css: p } }\n`,
      ['r.yaml:16:5: ', 'rule set "jobs": a second rule set named "jobs"', '(ruleSets[1].name)'],
    ],
    [
      'a rule set without a name',
      'r.yaml',
      'version: 1\nruleSets:\n  - urls: x\n    fields: { a: { css: p } }\n',
      ['r.yaml:3:5: ', 'rule set #1: missing key "name"'],
    ],
    [
      'another version',
      'r.json',
      JSON_RULES.replace('"version": 1', '"version": 2'),
      ['r.json:2:3: ', '(version)'],
    ],
    ['not an object', 'r.json', '[]', ['r.json: expected an object with "version" and "ruleSets"']],
  ];
  for (const [name, file, text, parts] of cases) test(name, () => fails(text, file, parts));
});
