// examples/jobs-rules.json over the test web's job pages, fetched over HTTP (127.0.0.1)
// and decoded as a crawl decodes them, against the ground truth jobFields(seed, n).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeBody } from '../fetch/charset/index.js';
import { JOB_COUNTS, jobFields, startTestWeb, type TestWeb } from '../testweb/index.js';
import { rawGet } from '../testweb/testing.js';
import {
  extractPage,
  fieldValues,
  loadRules,
  NO_RULE_SET,
  parseMoney,
  type Rules,
} from './index.js';

const RULES = fileURLToPath(new URL('../../examples/jobs-rules.json', import.meta.url));

let web: TestWeb;
let rules: Rules;
before(async () => {
  web = await startTestWeb({ port: 0 });
  rules = await loadRules(RULES);
});
after(async () => {
  await web.close();
});

async function page(path: string): Promise<{ url: string; html: string }> {
  const r = await rawGet(web.port, 'jobs.test', path);
  assert.equal(r.status, 200, path);
  const header = r.headers['content-type'];
  const html = decodeBody(r.body, typeof header === 'string' ? header : undefined).text;
  return { url: `http://jobs.test${path}`, html };
}

test('every field of examples/jobs-rules.json equals the ground truth', async () => {
  // A few jobs, with one whose salary is 面议 (negotiable: not an amount of money).
  const negotiable = Array.from({ length: JOB_COUNTS.small }, (_, n) => n).find(
    (n) => jobFields(web.seed, n).salary === '面议',
  );
  assert.notEqual(negotiable, undefined);
  const jobs = [0, 1, 7, 42, JOB_COUNTS.small - 1, negotiable!];
  for (const n of jobs) {
    const truth = jobFields(web.seed, n);
    const got = extractPage(rules, await page(`/job/${n}`));
    assert.equal(got.matched.length, 1);
    const r = got.matched[0]!;
    assert.equal(r.ruleSet, 'jobs');
    assert.ok(r.complete, `job ${n}: ${r.missingRequired.join(', ')}`);
    assert.deepEqual(fieldValues(r, 'title'), [truth.title]);
    assert.deepEqual(fieldValues(r, 'company'), [truth.company]);
    assert.deepEqual(fieldValues(r, 'place'), [truth.place]);
    assert.deepEqual(fieldValues(r, 'date'), [truth.date]);
    // Paragraphs are lines of the page's text: the description comes out exactly.
    assert.deepEqual(fieldValues(r, 'description'), [truth.description]);
    // The truth is written `15k-25k`; compared through the same normalisation.
    const salary = parseMoney(truth.salary, 'CNY');
    if (salary === undefined) {
      assert.equal(n, negotiable);
      const f = r.fields.find((x) => x.name === 'salary')!;
      assert.deepEqual(f.values, []);
      assert.equal(f.reason, 'value "薪资：面议" is not an amount of money');
    } else {
      assert.match(salary, /^CNY \d+000-\d+000$/);
      assert.deepEqual(fieldValues(r, 'salary'), [salary]);
    }
  }
});

test('list pages match no rule set', async () => {
  const got = extractPage(rules, await page('/list/1'));
  assert.deepEqual(got.matched, []);
  assert.equal(got.reason, NO_RULE_SET);
});
