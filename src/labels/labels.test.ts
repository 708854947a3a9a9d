// Labels files: the test web's JSON (all topics or one) and URL lists, and their errors.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { labels } from '../testweb/index.js';
import { tempDir } from '../util/testing.js';
import { parseLabels, readLabelsFile } from './labels.js';

const ALL = labels({ seed: 1, size: 'small' });
const MONITOR = ALL.topics.find((t) => t.id === 'monitor');
assert.ok(MONITOR);

/** Asserts an InvalidOptionError whose message matches `re`. */
function refuses(fn: () => unknown, re: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof InvalidOptionError, String(e));
    assert.match(e.message, re);
    return true;
  });
}

describe('URL lists', () => {
  it('one URL per line; blank lines, comments and duplicates ignored; URLs canonicalised', () => {
    const text = [
      '# relevant pages',
      'http://a.test/x',
      '',
      '  HTTP://A.test:80/y/index.html  ',
      'http://a.test/x#part',
      'https://b.test/%7euser',
    ].join('\r\n');
    const l = parseLabels(text, 'list.txt');
    assert.equal(l.format, 'urls');
    assert.equal(l.topic, null);
    assert.deepEqual(
      [...l.relevant],
      ['http://a.test/x', 'http://a.test/y/', 'https://b.test/~user'],
    );
  });

  it('a line that is not an http(s) URL is named by file and line', () => {
    refuses(
      () => parseLabels('http://a.test/\n\nftp://a.test/f\n', 'list.txt'),
      /^list\.txt:3: "ftp:\/\/a\.test\/f" is not an http\(s\) URL$/,
    );
  });

  it('an empty list, or a topic asked of a list, is refused', () => {
    refuses(() => parseLabels('# nothing\n\n', 'empty.txt'), /^empty\.txt: no relevant URL/);
    refuses(() => parseLabels('http://a.test/', 'l.txt', { topic: 'monitor' }), /no topics/);
  });
});

describe("the test web's labels JSON", () => {
  const allText = JSON.stringify(ALL, null, 2);

  it('all topics: --topic picks one', () => {
    const l = parseLabels(allText, 'labels.json', { topic: 'monitor' });
    assert.equal(l.format, 'json');
    assert.equal(l.topic, 'monitor');
    assert.equal(l.topicName, MONITOR.name);
    assert.equal(l.relevant.size, new Set(MONITOR.relevant).size);
    assert.ok(MONITOR.relevant.every((u) => l.relevant.has(u)));
    assert.deepEqual(l.seeds, MONITOR.seeds);
  });

  it('all topics without --topic, or an unknown one, lists the topics', () => {
    refuses(
      () => parseLabels(allText, 'labels.json'),
      /labels\.json: the labels hold 4 topics; pick one \(topics: monitor, grid, astronomy, cooking\)/,
    );
    refuses(
      () => parseLabels(allText, 'labels.json', { topic: 'nope' }),
      /no topic "nope".*topics: monitor/,
    );
  });

  it("one topic's object is accepted, and checked against --topic", () => {
    const one = JSON.stringify(MONITOR);
    assert.equal(parseLabels(one, 'm.json').relevant.size, new Set(MONITOR.relevant).size);
    assert.equal(parseLabels(one, 'm.json', { topic: 'monitor' }).topic, 'monitor');
    refuses(
      () => parseLabels(one, 'm.json', { topic: 'grid' }),
      /labels are for topic "monitor", not "grid"/,
    );
  });

  it('JSON syntax errors give the line and column', () => {
    refuses(
      () => parseLabels('{\n  "relevant": [\n    "http://a.test/",\n  ]\n}', 'bad.json'),
      /^bad\.json: invalid JSON \(line 4, column 3\): /,
    );
  });

  it('a bad field is named by its path', () => {
    const t = { ...MONITOR, relevant: ['http://a.test/', 'http://a.test/2', 'mailto:x@y.z'] };
    refuses(
      () => parseLabels(JSON.stringify({ ...ALL, topics: [t] }), 'l.json'),
      /^l\.json: topics\[0\]\.relevant\[2\]: "mailto:x@y\.z" is not an http\(s\) URL$/,
    );
    refuses(
      () => parseLabels('{"relevant": "http://a.test/"}', 'l.json'),
      /^l\.json: relevant must be an array of URLs$/,
    );
    refuses(() => parseLabels('{"pages": []}', 'l.json'), /expected the test web's labels/);
  });
});

describe('readLabelsFile', () => {
  const dir = tempDir('labels');

  it('reads either format from a file', () => {
    const urls = join(dir, 'relevant.txt');
    writeFileSync(urls, `${MONITOR.relevant.slice(0, 3).join('\n')}\n`);
    assert.equal(readLabelsFile(urls).relevant.size, 3);
    const json = join(dir, 'labels.json');
    writeFileSync(json, `\ufeff${JSON.stringify(ALL)}`);
    assert.equal(readLabelsFile(json, { topic: 'grid' }).topic, 'grid');
  });

  it('a missing file is named', () => {
    const missing = join(dir, 'nope.json');
    refuses(
      () => readLabelsFile(missing),
      new RegExp(
        `${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read the labels file \\(no such file\\)`,
      ),
    );
  });
});
