/**
 * Counting topic keywords in a page, for the keyword vector-space model.
 *
 * Text and keywords are normalised alike ({@link normalizeText}, {@link normalizeKeyword}:
 * NFKC, lower-case). Then each keyword is counted in one of three ways:
 *
 * - **CJK substring** — a keyword containing Chinese/Japanese (or Thai…) characters
 *   is counted as a substring of the normalised text, non-overlapping. Word
 *   segmenters disagree about such words (`显示器` may come out as `显示` + `器`),
 *   and a substring count does not depend on them.
 * - **Token phrase** — a keyword of plain words (`grid`, `power grid`, `power-grid`,
 *   `4k`, `2.0`) is matched on whole tokens of the text: `grid` does not count inside
 *   `gridlock`, and `power grid` counts `Power-Grid`, `power\ngrid` and `power, grid`
 *   (punctuation and line breaks between words are ignored; a CJK run is not).
 *   Words are matched as written: no stemming (`grid` does not count `grids`).
 * - **Bounded substring** — a keyword with symbols the tokeniser drops (`c++`, `c#`,
 *   `.net`, `at&t`) is counted as a substring whose neighbours are not letters or digits.
 *
 * Stop words are not removed here: a keyword is counted wherever it occurs.
 */
import { classOf, hasSegmentScript, normalizeKeyword, normalizeText, WORD } from './chars.js';
import { countTokenPhrase, phraseAt } from './phrase.js';
import { scan } from './scan.js';

/** Counts keywords in a text; `counts[i]` belongs to `keywords[i]`. */
export type KeywordCounter = (text: string) => number[];

/** How a keyword is matched (see the module comment). */
export type KeywordMatch = 'cjk-substring' | 'token-phrase' | 'bounded-substring';

/** Plain word tokens of normalised text, stop words and numbers kept. */
function wordTokens(norm: string): string[] {
  const out: string[] = [];
  scan(norm, {
    word(token) {
      out.push(token);
    },
    run() {},
  });
  return out;
}

interface Compiled {
  match: KeywordMatch;
  /** The normalised keyword (substring modes). */
  text: string;
  /** Its tokens (token-phrase mode). */
  tokens: string[];
}

function compile(keyword: string): Compiled {
  const text = normalizeKeyword(keyword).replace(/\u2019/g, "'");
  if (hasSegmentScript(text)) return { match: 'cjk-substring', text, tokens: [] };
  const tokens = wordTokens(text);
  const plain = text.replace(/[\s-]+/g, ' ').trim();
  if (tokens.length > 0 && tokens.join(' ') === plain) {
    return { match: 'token-phrase', text, tokens };
  }
  return { match: 'bounded-substring', text, tokens: [] };
}

/** How {@link countKeywords} will match `keyword`. */
export function keywordMatchMode(keyword: string): KeywordMatch {
  return compile(keyword).match;
}

function countSubstring(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) {
    n++;
  }
  return n;
}

function isWordAt(s: string, i: number): boolean {
  if (i < 0 || i >= s.length) return false;
  const cp = s.codePointAt(i) ?? 0;
  // A low surrogate at i: look at the whole pair.
  if (cp >= 0xdc00 && cp <= 0xdfff && i > 0) return classOf(s.codePointAt(i - 1) ?? 0) === WORD;
  return classOf(cp) === WORD;
}

function countBounded(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  // A boundary is only required where the keyword itself starts/ends with a word character.
  const needStart = isWordAt(needle, 0);
  const needEnd = isWordAt(needle, needle.length - 1);
  let n = 0;
  let i = haystack.indexOf(needle);
  while (i >= 0) {
    const end = i + needle.length;
    if ((!needStart || !isWordAt(haystack, i - 1)) && (!needEnd || !isWordAt(haystack, end))) {
      n++;
      i = haystack.indexOf(needle, end);
    } else {
      i = haystack.indexOf(needle, i + 1);
    }
  }
  return n;
}

/**
 * Word keywords (token phrases) found in one pass: a regular expression alternating
 * their first tokens, longest first, yields the candidates that `countTokenPhrase`
 * would find with one `indexOf` scan per keyword, and the same boundary rules decide.
 * The longest-first alternation loses nothing: where a longer first token matches, a
 * shorter one is never a whole token (the next character continues the word), and no
 * token starts inside a match. About 3× faster than a scan per keyword from two keywords
 * on (30 English keywords on a 5,000-character page: 50 µs instead of 150 µs).
 */
function createPhraseCounter(
  compiled: readonly Compiled[],
): ((norm: string, counts: number[]) => void) | undefined {
  const byFirst = new Map<string, number[]>();
  compiled.forEach((k, i) => {
    const first = k.tokens[0];
    if (k.match !== 'token-phrase' || first === undefined) return;
    const list = byFirst.get(first);
    if (list === undefined) byFirst.set(first, [i]);
    else list.push(i);
  });
  if (byFirst.size < 2) return undefined;
  const alternatives = [...byFirst.keys()]
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(alternatives.join('|'), 'g');
  return (norm, counts) => {
    re.lastIndex = 0;
    for (let m = re.exec(norm); m !== null; m = re.exec(norm)) {
      for (const i of byFirst.get(m[0]) ?? []) {
        if (phraseAt(norm, m.index, compiled[i]?.tokens ?? [])) counts[i] = (counts[i] ?? 0) + 1;
      }
    }
  };
}

/**
 * Compiles `keywords` once and returns a counter for many texts (the VSM's hot path:
 * no segmenter, no token strings; keywords are found with `indexOf`, word keywords
 * with one regular expression when there are several).
 */
export function createKeywordCounter(keywords: readonly string[]): KeywordCounter {
  const compiled = keywords.map((k) => compile(k));
  const countPhrases = createPhraseCounter(compiled);
  return (text: string): number[] => {
    let norm = normalizeText(text);
    if (norm.includes('\u2019')) norm = norm.replace(/\u2019/g, "'");
    const counts = compiled.map((k) =>
      k.match === 'token-phrase'
        ? countPhrases
          ? 0
          : countTokenPhrase(norm, k.tokens)
        : k.match === 'cjk-substring'
          ? countSubstring(norm, k.text)
          : countBounded(norm, k.text),
    );
    countPhrases?.(norm, counts);
    return counts;
  };
}

/** Occurrences of each keyword in `text` (`counts[i]` for `keywords[i]`). */
export function countKeywords(text: string, keywords: readonly string[]): number[] {
  return createKeywordCounter(keywords)(text);
}
