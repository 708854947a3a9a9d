import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DESCRIPTION_END,
  DESCRIPTION_START,
  JOB_COUNTS,
  JOBS_PER_PAGE,
  jobFields,
  startTestWeb,
  type TestWeb,
} from './index.js';
import { rawGet } from './testing.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
});

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '\n')
    .replace(/\s+/g, ' ')
    .trim();
const get = async (path: string) => {
  const r = await rawGet(web.port, 'jobs.test', path);
  return { status: r.status, html: r.body.toString() };
};

describe('jobs.test', () => {
  test('job pages carry the ground-truth fields; the description sits between the markers', async () => {
    for (const n of [0, 1, 7, 42, JOB_COUNTS.small - 1]) {
      const f = jobFields(1, n);
      const { status, html } = await get(`/job/${n}`);
      assert.equal(status, 200);
      assert.equal(f.url, `http://jobs.test/job/${n}`);
      for (const v of [f.title, f.company, f.salary, f.place, f.date])
        assert.ok(html.includes(v), v);
      assert.match(f.date, /^\d{4}-\d\d-\d\d$/);
      const t = text(html);
      const start = t.indexOf(DESCRIPTION_START);
      const end = t.indexOf(DESCRIPTION_END);
      assert.ok(start > 0 && end > start);
      assert.equal(t.indexOf(DESCRIPTION_START, start + 1), -1);
      assert.equal(
        t.slice(start + DESCRIPTION_START.length, end).trim(),
        f.description.replace(/\s+/g, ' '),
      );
    }
  });

  test('fields are deterministic and vary with the seed', () => {
    assert.deepEqual(jobFields(1, 5), jobFields(1, 5));
    assert.notDeepEqual(jobFields(1, 5), jobFields(2, 5));
    const cats = new Set(Array.from({ length: 50 }, (_, i) => jobFields(1, i).category));
    assert.deepEqual([...cats].sort(), ['other', 'programming']);
  });

  test('list pages are paginated and link every job once', async () => {
    const pages = Math.ceil(JOB_COUNTS.small / JOBS_PER_PAGE);
    const seen = new Set<string>();
    for (let k = 1; k <= pages; k++) {
      const { status, html } = await get(`/list/${k}`);
      assert.equal(status, 200);
      const jobs = [...html.matchAll(/href="(\/job\/\d+)"/g)].map((m) => m[1]!);
      assert.ok(jobs.length > 0 && jobs.length <= JOBS_PER_PAGE);
      for (const j of jobs) seen.add(j);
      if (k < pages) assert.ok(html.includes(`href="/list/${k + 1}"`));
    }
    assert.equal(seen.size, JOB_COUNTS.small);
    assert.equal((await get(`/list/${pages + 1}`)).status, 404);
    assert.equal((await get(`/job/${JOB_COUNTS.small}`)).status, 404);
    assert.match((await get('/')).html, /href="\/list\/1"/);
  });
});
