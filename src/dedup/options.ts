/** Options of fingerprinting and of the duplicate detector, validated where they enter. */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';

const fingerprintShape = {
  /**
   * Words per shingle (feature): each run of this many consecutive words within a
   * text block is one feature. Smaller shingles make a one-word edit move fewer
   * features, but make unrelated texts on one topic share more of them.
   * @default 3
   */
  shingleSize: z.number().int().min(1).max(8).default(3),
  /**
   * CJK characters per shingle in text written without spaces (Chinese, Japanese,
   * Thai…), where every character is a token: a Chinese word is one to two
   * characters, so a shingle needs more characters than words.
   * @default 5
   */
  cjkShingleSize: z.number().int().min(1).max(16).default(5),
  /**
   * Text blocks (lines) holding fewer words than this are navigation-like (menus,
   * link lists, headlines, bylines, footers) and left out of the SimHash, unless
   * the long blocks give fewer than `minFeatures` features or fewer than the short
   * ones (a short page whose one long line is a stock footer); a CJK character counts
   * as half a word (15 words: 30 characters). 0 keeps every block.
   * @default 15
   */
  minBlockWords: z.number().int().min(0).default(15),
  /**
   * Fewest features (distinct shingles) a text needs to be fingerprinted: about 26
   * words or 28 CJK characters at the default shingle sizes. A shorter text has no
   * fingerprint and is never a duplicate of anything.
   * @default 24
   */
  minFeatures: z.number().int().min(1).default(24),
};

export const fingerprintOptionsSchema = z.strictObject(fingerprintShape);

export const duplicateDetectorOptionsSchema = z.strictObject({
  ...fingerprintShape,
  /**
   * Largest Hamming distance between two SimHashes that makes a near duplicate.
   * The index splits the 64 bits into `maxDistance + 1` blocks: beyond 4 or 5 the
   * blocks get short and lookups in a large index slow down.
   * @default 3
   */
  maxDistance: z.number().int().min(0).max(8).default(3),
});

export type FingerprintOptions = z.input<typeof fingerprintOptionsSchema>;
export type ResolvedFingerprintOptions = z.output<typeof fingerprintOptionsSchema>;
export type DuplicateDetectorOptions = z.input<typeof duplicateDetectorOptionsSchema>;
export type ResolvedDuplicateDetectorOptions = z.output<typeof duplicateDetectorOptionsSchema>;

/**
 * Validates `options` against `schema`; a bad or unknown option throws
 * InvalidOptionError (FC_ERR_INVALID_OPTION) naming the field.
 */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  options: unknown,
  what: string,
): z.output<S> {
  const r = schema.safeParse(options ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  let field = issue?.path.join('.') || '(options)';
  if (issue?.code === 'unrecognized_keys') field = issue.keys.join(', ');
  throw new InvalidOptionError(`Invalid ${what} option ${field}: ${issue?.message}`, {
    cause: r.error,
  });
}
