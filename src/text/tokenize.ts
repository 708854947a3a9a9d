/**
 * Tokenisation: text → normalised word tokens.
 *
 * 1. The text is normalised once ({@link normalizeText}: NFKC, lower-case).
 * 2. One char-code scan cuts words of space-separated scripts (see scan.ts) and
 *    collects runs of CJK/Thai-like scripts, which alone go to one shared
 *    `Intl.Segmenter` (word granularity); its word-like segments become tokens.
 * 3. Stop words (English and Chinese, see stopwords-*.ts) are removed unless
 *    `keepStopWords`; numbers are removed when `keepNumbers` is false; tokens longer
 *    than `maxChars` (data blobs, glued URLs) are dropped.
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
  const { keepNumbers, maxChars } = o;
  return (text: string): string[] => {
    const out: string[] = [];
    const seg = wordSegmenter();
    scan(normalizeText(text), {
      word(token, isNumber) {
        if (isNumber && !keepNumbers) return;
        if (token.length > maxChars || stop?.has(token)) return;
        out.push(token);
      },
      run(run) {
        for (const s of seg.segment(run)) {
          if (!s.isWordLike) continue;
          const token = s.segment;
          if (token.length > maxChars || stop?.has(token)) continue;
          out.push(token);
        }
      },
    });
    return out;
  };
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
