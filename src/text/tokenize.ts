/**
 * Tokenisation: text → normalised word tokens.
 *
 * 1. The text is normalised once ({@link normalizeText}: NFKC, lower-case).
 * 2. One char-code scan cuts words of space-separated scripts (see scan.ts) and
 *    collects runs of CJK/Thai-like scripts, which alone go to one shared
 *    `Intl.Segmenter` (word granularity); its word-like segments become tokens.
 * 3. Stop words (English and Chinese, see stopwords-*.ts) are removed unless
 *    `keepStopWords`; numbers are removed when `keepNumbers` is false; tokens longer
 *    than `maxChars` (data blobs, glued URLs) or shorter than `minChars` are dropped.
 */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import { normalizeText } from './chars.js';
import { scan } from './scan.js';
import { ENGLISH_STOP_WORDS } from './stopwords-en.js';
import { CHINESE_STOP_WORDS } from './stopwords-zh.js';

/** The default stop words: English and Chinese. */
export const DEFAULT_STOP_WORDS: ReadonlySet<string> = new Set([
  ...ENGLISH_STOP_WORDS,
  ...CHINESE_STOP_WORDS,
]);

export const tokenizeOptionsSchema = z.strictObject({
  /**
   * Keep stop words instead of removing them.
   * @default false
   */
  keepStopWords: z.boolean().default(false),
  /**
   * Extra stop words removed along with the default ones (normalised like text).
   * @default []
   */
  extraStopWords: z.array(z.string()).default([]),
  /**
   * Keep numbers (`2024`, `3.14`, `1,000`); words mixing letters and digits (`4k`,
   * `h264`) are words, always kept.
   * @default true
   */
  keepNumbers: z.boolean().default(true),
  /**
   * Tokens longer than this many characters (UTF-16 code units) are dropped.
   * @default 64
   */
  maxChars: z.number().int().min(1).default(64),
  /**
   * Tokens shorter than this many characters (UTF-16 code units) are dropped: 2 drops
   * single Han characters, which the segmenter yields for morphemes (器, 屏) that make
   * poor topic terms.
   * @default 1
   */
  minChars: z.number().int().min(1).default(1),
  /**
   * Glue single-character segments of CJK text to their neighbours, as {@link glueSingles}
   * describes: `显示|器` → `显示器`, `电|竞` → `电竞`. The segmenter's dictionary splits
   * many compounds that a reader sees as one word (显示器, 分辨率, 刷新率); topic terms
   * learned from examples read better, and match better, whole.
   * @default false
   */
  glueCjkSingles: z.boolean().default(false),
});

export type TokenizeOptions = z.input<typeof tokenizeOptionsSchema>;

/** Text in, tokens out. */
export type Tokenizer = (text: string) => string[];

let segmenter: Intl.Segmenter | undefined;

/** The one shared word segmenter (creating one costs far more than using it). */
export function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  return segmenter;
}

function parseOptions(options: TokenizeOptions): z.output<typeof tokenizeOptionsSchema> {
  const r = tokenizeOptionsSchema.safeParse(options);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new InvalidOptionError(
    `Invalid tokenizer option ${issue?.path.join('.') || '(options)'}: ${issue?.message}`,
    { cause: r.error },
  );
}

/** Builds a tokenizer with fixed options (validated once). */
export function createTokenizer(options: TokenizeOptions = {}): Tokenizer {
  const o = parseOptions(options);
  let stop: ReadonlySet<string> | undefined;
  if (!o.keepStopWords) {
    stop =
      o.extraStopWords.length === 0
        ? DEFAULT_STOP_WORDS
        : new Set([...DEFAULT_STOP_WORDS, ...o.extraStopWords.map((w) => normalizeText(w).trim())]);
  }
  const { keepNumbers, maxChars, minChars, glueCjkSingles } = o;
  const glueStop = stop ?? DEFAULT_STOP_WORDS;
  return (text: string): string[] => {
    const out: string[] = [];
    const seg = wordSegmenter();
    const keep = (token: string) =>
      token.length <= maxChars && token.length >= minChars && !stop?.has(token);
    scan(normalizeText(text), {
      word(token, isNumber) {
        if (isNumber && !keepNumbers) return;
        if (keep(token)) out.push(token);
      },
      run(run) {
        if (glueCjkSingles) {
          for (const token of glueSingles(seg.segment(run), glueStop)) {
            if (keep(token)) out.push(token);
          }
          return;
        }
        for (const s of seg.segment(run)) {
          if (s.isWordLike && keep(s.segment)) out.push(s.segment);
        }
      },
    });
    return out;
  };
}

/** Longest run of single characters glued into one token. */
const MAX_GLUED_SINGLES = 4;

function isSingleChar(s: string): boolean {
  return s.length === 1 || (s.length === 2 && (s.codePointAt(0) ?? 0) > 0xffff);
}

/**
 * The word-like segments of a CJK run, with single characters glued on. Consecutive
 * single characters that are not stop words form one token (`国家|电|网` → `国家`,
 * `电网`; `电|竞` → `电竞`; at most {@link MAX_GLUED_SINGLES}); a single character
 * standing alone becomes the suffix of the word right before it (`显示|器` → `显示器`;
 * one suffix per word, never onto a stop word). Punctuation between segments and stop
 * words prevent gluing.
 */
function glueSingles(segments: Intl.Segments, stopWords: ReadonlySet<string>): string[] {
  // Word-like segments; `joined` tells whether one directly follows the previous one.
  const segs: { text: string; joined: boolean; single: boolean }[] = [];
  let end = -1;
  for (const s of segments) {
    if (!s.isWordLike) continue;
    const text = s.segment;
    const single = isSingleChar(text) && !stopWords.has(text);
    segs.push({ text, joined: s.index === end, single });
    end = s.index + text.length;
  }
  const parts: string[] = [];
  let suffixable = false; // the last part is a word that may take a one-character suffix
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i] as (typeof segs)[number];
    if (!seg.single) {
      parts.push(seg.text);
      suffixable = !stopWords.has(seg.text);
      continue;
    }
    let group = seg.text;
    while (group.length < MAX_GLUED_SINGLES) {
      const next = segs[i + 1];
      if (next === undefined || !next.single || !next.joined) break;
      group += next.text;
      i++;
    }
    if (group === seg.text && seg.joined && suffixable) {
      parts[parts.length - 1] += group;
    } else {
      parts.push(group);
    }
    suffixable = false;
  }
  return parts;
}

const defaultTokenizer = createTokenizer();
const cache = new WeakMap<TokenizeOptions, Tokenizer>();

/**
 * Splits `text` into normalised tokens. For many calls with the same non-default
 * options, {@link createTokenizer} validates the options once.
 */
export function tokenize(text: string, options?: TokenizeOptions): string[] {
  if (options === undefined) return defaultTokenizer(text);
  let t = cache.get(options);
  if (t === undefined) {
    t = createTokenizer(options);
    cache.set(options, t);
  }
  return t(text);
}

/** How often each token occurs, from text (tokenised with `options`) or from tokens. */
export function termFrequencies(
  input: string | readonly string[],
  options?: TokenizeOptions,
): Map<string, number> {
  const tokens = typeof input === 'string' ? tokenize(input, options) : input;
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}
