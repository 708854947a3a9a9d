import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import {
  CHINESE_STOP_WORDS,
  createTokenizer,
  ENGLISH_STOP_WORDS,
  normalizeKeyword,
  normalizeText,
  termFrequencies,
  tokenize,
} from './index.js';

describe('tokenize: space-separated scripts', () => {
  const table: [string, string[]][] = [
    ['', []],
    ['   ...  ', []],
    ['Hello, World!', ['hello', 'world']],
    ['The power grid is down', ['power', 'grid']],
    ['Power-Grid power_grid', ['power', 'grid', 'power', 'grid']],
    ["the grid's operator", ['grid', 'operator']],
    ['the grid’s operator', ['grid', 'operator']],
    ["O'Neill rock'n'roll", ["o'neill", "rock'n'roll"]],
    ["'quoted' words'", ['quoted', 'words']],
    ['1,000.5 MW in 2024, 3.14.', ['1,000.5', 'mw', '2024', '3.14']],
    ['4K h264 MP3', ['4k', 'h264', 'mp3']],
    ['ＰＯＷＥＲ　ＧＲＩＤ １２３', ['power', 'grid', '123']], // full-width forms (NFKC)
    ['ﬁne ﬂow', ['fine', 'flow']], // ligatures
    ['Café NAÏVE façade', ['café', 'naïve', 'façade']],
    ['Москва и Санкт-Петербург', ['москва', 'и', 'санкт', 'петербург']],
    ['한국어 텍스트', ['한국어', '텍스트']],
    ['e.g. x_y', []], // single letters are stop words
    ['emoji 😀 between', ['emoji']], // "between" is a stop word
    ['http://example.com/path', ['http', 'example', 'com', 'path']],
  ];
  for (const [text, expected] of table) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(tokenize(text), expected);
    });
  }
});

describe('tokenize: CJK', () => {
  it('segments Chinese into words and drops Chinese stop words', () => {
    const tokens = tokenize('我们的电网公司发布了新的规划。');
    assert.ok(tokens.includes('公司'), tokens.join('|'));
    assert.ok(tokens.includes('规划'), tokens.join('|'));
    for (const stop of ['我们', '的', '了']) assert.ok(!tokens.includes(stop), stop);
    // every token is a substring of the text: nothing invented, no punctuation
    for (const t of tokens) assert.ok('我们的电网公司发布了新的规划'.includes(t), t);
  });

  it('never yields punctuation or spaces from Chinese text', () => {
    const text = '电网，公司。“规划”（草案）！ 电力 、储能…… 调度';
    const tokens = tokenize(text, { keepStopWords: true });
    assert.deepEqual(tokens.join(''), '电网公司规划草案电力储能调度');
  });

  it('keeps Latin words and numbers inside Chinese text apart', () => {
    const tokens = tokenize('支持4K分辨率，售价1999元');
    assert.ok(tokens.includes('4k'));
    assert.ok(tokens.includes('1999'));
    assert.ok(tokens.includes('分辨率') || (tokens.includes('分辨') && tokens.includes('率')));
  });

  it('segments Japanese', () => {
    const tokens = tokenize('コンピューターの価格', { keepStopWords: true });
    assert.ok(tokens.includes('コンピューター'), tokens.join('|'));
    assert.ok(tokens.includes('価格'), tokens.join('|'));
  });

  it('handles characters outside the BMP', () => {
    assert.equal(tokenize('𠀀𠀁').join(''), '𠀀𠀁'); // CJK Extension B goes to the segmenter
    assert.ok(tokenize('𝐀𝐁𝐂 word').includes('word'));
  });

  it('gives the same tokens whether or not a long run is cut for the segmenter', () => {
    // 600 characters without punctuation: cut into runs of at most 128 characters.
    const text = '电网'.repeat(300);
    const tokens = tokenize(text);
    assert.equal(tokens.join(''), text);
  });
});

describe('tokenize options', () => {
  it('keeps stop words on request', () => {
    assert.deepEqual(tokenize('The grid is down', { keepStopWords: true }), [
      'the',
      'grid',
      'is',
      'down',
    ]);
  });

  it('drops numbers on request, but not words with digits', () => {
    assert.deepEqual(tokenize('4K at 1,000 nits in 2024', { keepNumbers: false }), ['4k', 'nits']);
  });

  it('drops overlong tokens', () => {
    const blob = 'x'.repeat(65);
    assert.deepEqual(tokenize(`ok ${blob}`), ['ok']);
    assert.deepEqual(tokenize(`ok ${blob}`, { maxChars: 100 }), ['ok', blob]);
  });

  it('drops short tokens on request', () => {
    assert.deepEqual(tokenize('4K 屏 on a 液晶 x2', { minChars: 2 }), ['4k', '液晶', 'x2']);
    assert.deepEqual(tokenize('屏', { keepStopWords: true }), ['屏']);
  });

  it('glues single CJK characters to their neighbours on request', () => {
    // The segmenter splits these compounds (显示|器, 电|竞, 刷新|率); gluing rejoins them.
    const glue = { glueCjkSingles: true };
    assert.deepEqual(tokenize('电竞显示器的刷新率', glue), ['电竞', '显示器', '刷新率']);
    assert.deepEqual(tokenize('液晶显示器市场', glue), ['液晶', '显示器', '市场']);
    // consecutive single characters glue to each other, not onto the word before
    assert.deepEqual(tokenize('国家电网', glue), ['国家', '电网']);
    // punctuation and stop words stop the glue
    assert.deepEqual(tokenize('显示，器', { ...glue, keepStopWords: true }), ['显示', '器']);
    assert.ok(!tokenize('显示器的', glue).some((t) => t.includes('的')));
  });

  it('removes extra stop words, normalised', () => {
    assert.deepEqual(tokenize('Grid news today', { extraStopWords: ['NEWS', '  Today'] }), [
      'grid',
    ]);
  });

  it('rejects unknown or malformed options', () => {
    assert.throws(
      () => createTokenizer({ keepStopwords: true } as never),
      (e: unknown) => e instanceof InvalidOptionError && /keepStopwords/.test(e.message),
    );
    assert.throws(
      () => createTokenizer({ maxChars: 0 }),
      (e: unknown) => e instanceof InvalidOptionError && /maxChars/.test(e.message),
    );
  });
});

describe('termFrequencies', () => {
  it('counts tokens of a text', () => {
    assert.deepEqual(
      [...termFrequencies('Grid grid GRID power, power; station')],
      [
        ['grid', 3],
        ['power', 2],
        ['station', 1],
      ],
    );
  });

  it('counts a token list as given', () => {
    assert.deepEqual(
      [...termFrequencies(['a', 'b', 'a'])],
      [
        ['a', 2],
        ['b', 1],
      ],
    );
  });
});

describe('normalisation', () => {
  it('folds case and full-width forms', () => {
    assert.equal(normalizeText('ＡＢＣ Straße'), 'abc straße');
  });

  it('normalises keywords like text, collapsing whitespace', () => {
    assert.equal(normalizeKeyword('  Power \n Grid '), 'power grid');
    assert.equal(normalizeKeyword('ＰＯＷＥＲ'), 'power');
  });
});

describe('stop word lists', () => {
  it('are lower-case and of the documented size', () => {
    assert.ok(ENGLISH_STOP_WORDS.length >= 200, String(ENGLISH_STOP_WORDS.length));
    assert.ok(new Set(CHINESE_STOP_WORDS).size >= 300, String(CHINESE_STOP_WORDS.length));
    for (const w of ENGLISH_STOP_WORDS) assert.equal(w, w.toLowerCase());
  });

  it('do not hold topic words', () => {
    for (const w of ['computer', 'system', 'grid', 'power', '电网', '显示器', '中国', '国']) {
      assert.ok(!ENGLISH_STOP_WORDS.includes(w) && !CHINESE_STOP_WORDS.includes(w), w);
    }
  });
});
