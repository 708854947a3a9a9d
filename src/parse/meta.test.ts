import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addRobotsDirectives, addXRobotsTag, emptyRobots, metaRefreshTarget } from './meta.js';

describe('metaRefreshTarget', () => {
  const cases: Array<[string, string | undefined]> = [
    ['0; url=/next', '/next'],
    ['5;URL=http://a.test/x', 'http://a.test/x'],
    ["0; url='/quoted path'", '/quoted path'],
    ['0; url="/dq"; extra', '/dq'],
    ['3, url = /spaces', '/spaces'],
    ['0 url=/space-separated', '/space-separated'],
    ['0;/no-url-prefix', '/no-url-prefix'],
    ['1.5; url=/fraction', '/fraction'],
    ['10', undefined], // a plain reload
    ['0; ', undefined],
    ['soon; url=/x', undefined],
    ['0x; url=/x', undefined],
  ];
  for (const [content, want] of cases) {
    it(`${JSON.stringify(content)} → ${want}`, () =>
      assert.equal(metaRefreshTarget(content), want));
  }
});

describe('addRobotsDirectives', () => {
  const cases: Array<[string, [boolean, boolean, boolean]]> = [
    ['noindex', [true, false, false]],
    ['NOINDEX,NOFOLLOW', [true, true, false]],
    ['noindex nofollow', [true, true, false]],
    ['none', [true, true, false]],
    ['all', [false, false, false]],
    ['index, follow', [false, false, false]],
    ['nocache', [false, false, true]],
    ['max-snippet:50, noarchive', [false, false, true]],
    ['', [false, false, false]],
  ];
  for (const [content, [noindex, nofollow, noarchive]] of cases) {
    it(JSON.stringify(content), () => {
      const r = emptyRobots();
      addRobotsDirectives(content, r);
      assert.deepEqual(r, { noindex, nofollow, noarchive });
    });
  }
});

describe('addXRobotsTag', () => {
  const cases: Array<[string | string[], [boolean, boolean, boolean]]> = [
    ['noindex, nofollow', [true, true, false]],
    ['googlebot: noindex', [false, false, false]],
    ['FocusCrawl: noindex', [true, false, false]],
    [
      ['noarchive', 'otherbot: nofollow'],
      [false, false, true],
    ],
    ['unavailable_after: 25 Jun 2030 15:00:00 PST', [false, false, false]],
  ];
  for (const [values, [noindex, nofollow, noarchive]] of cases) {
    it(JSON.stringify(values), () => {
      const r = emptyRobots();
      addXRobotsTag(values, 'focuscrawl', r);
      assert.deepEqual(r, { noindex, nofollow, noarchive });
    });
  }
});
