// Sentence and title generation from word lists and compiled templates.
import type { Rng } from './prng.js';
import { EN_GENERIC, EN_SITE_WORDS, EN_TEMPLATES, EN_TIMES, EN_TITLES } from './words-en.js';
import { ZH_GENERIC, ZH_SITE_WORDS, ZH_TEMPLATES, ZH_TIMES, ZH_TITLES } from './words-zh.js';

/** Word lists of one subject (a topic or an off-topic filler subject). */
export interface Vocab {
  nouns: readonly string[];
  adjs: readonly string[];
  verbs: readonly string[];
  people: readonly string[];
  phrases: readonly string[];
}

export type LangCode = 'en' | 'zh';

// Slot codes inside compiled templates.
const N = 0;
const A = 1;
const V = 2;
const P = 3;
const X = 4;
const T = 5;
const NUM = 6;
const SLOTS: Record<string, number> = { N, A, V, P, X, T, '#': NUM };

type Part = string | number;

function compile(t: string): Part[] {
  const parts: Part[] = [];
  const re = /\{([NAVPXT#])\}/g;
  let last = 0;
  for (let m = re.exec(t); m !== null; m = re.exec(t)) {
    if (m.index > last) parts.push(t.slice(last, m.index));
    parts.push(SLOTS[m[1] as string] as number);
    last = re.lastIndex;
  }
  if (last < t.length) parts.push(t.slice(last));
  return parts;
}

export interface Language {
  code: LangCode;
  templates: Part[][];
  titles: Part[][];
  times: readonly string[];
  generic: readonly string[];
  /** Separator between sentences. */
  space: string;
  words: typeof EN_SITE_WORDS;
  /** Sentences mentioning a keyword once in passing ({K} is the keyword). */
  mentions: readonly (readonly [string, string])[];
}

export const LANGS: Record<LangCode, Language> = {
  en: {
    code: 'en',
    templates: EN_TEMPLATES.map(compile),
    titles: EN_TITLES.map(compile),
    times: EN_TIMES,
    generic: EN_GENERIC,
    space: ' ',
    words: EN_SITE_WORDS,
    mentions: [
      ['It reminded me of the ', ' we talked about last year.'],
      ['Somebody in the audience even asked about the ', '.'],
      ['The logo shows a small ', ' in the corner.'],
      ['One of the speakers used to write about the ', ' for a magazine.'],
    ],
  },
  zh: {
    code: 'zh',
    templates: ZH_TEMPLATES.map(compile),
    titles: ZH_TITLES.map(compile),
    times: ZH_TIMES,
    generic: ZH_GENERIC,
    space: '',
    words: ZH_SITE_WORDS,
    mentions: [
      ['顺便提一句，', '也是最近的热门话题。'],
      ['有读者在留言中问到了', '的问题。'],
      ['活动现场还展示了一些', '相关的资料。'],
      ['一位嘉宾以前做过', '方面的工作。'],
    ],
  },
};

/** 'a' → 'an' before a vowel, for English. */
function article(s: string, word: string): string {
  if (!VOWEL.test(word) || !(s.endsWith(' a ') || s === 'A ' || s === 'a ')) return s + word;
  return `${s.slice(0, -1)}n ${word}`;
}
const VOWEL = /^[aeiou]/;

function fill(rng: Rng, lang: Language, v: Vocab, parts: Part[]): string {
  let s = '';
  const en = lang.code === 'en';
  for (const p of parts) {
    if (typeof p === 'string') {
      s += p;
      continue;
    }
    switch (p) {
      case N:
        s = en ? article(s, rng.pick(v.nouns)) : s + rng.pick(v.nouns);
        break;
      case A:
        s = en ? article(s, rng.pick(v.adjs)) : s + rng.pick(v.adjs);
        break;
      case V:
        s += rng.pick(v.verbs);
        break;
      case P:
        s += rng.pick(v.people);
        break;
      case X:
        s += rng.pick(v.phrases);
        break;
      case T:
        s += rng.pick(lang.times);
        break;
      default:
        s += String(rng.range(2, 95));
    }
  }
  if (lang.code === 'en') return s.charAt(0).toUpperCase() + s.slice(1);
  return s.charCodeAt(0) === 0xff0c ? s.slice(1) : s; // a leading '，' after an empty time
}

/** One sentence about the subject `v`. */
export function sentence(rng: Rng, lang: Language, v: Vocab): string {
  return fill(rng, lang, v, rng.pick(lang.templates));
}

/** A page title about the subject `v`. */
export function title(rng: Rng, lang: Language, v: Vocab): string {
  return fill(rng, lang, v, rng.pick(lang.titles));
}

/** A sentence that mentions `keyword` once, in passing. */
export function mention(rng: Rng, lang: Language, keyword: string): string {
  const [a, b] = rng.pick(lang.mentions);
  return a + keyword + b;
}
