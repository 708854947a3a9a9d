/** Options of learnSiteModel, validated where they enter. */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';

export const learnOptionsSchema = z.strictObject({
  /**
   * Fewest usable pages (after left-out ones) to learn from; fewer throw a LearnError.
   * @default 10
   */
  minPages: z.number().int().min(2).default(10),
  /** Signatures in a layout pattern's path, the repeated element included. @default 4 */
  pathDepth: z.number().int().min(1).max(16).default(4),
  /** Class tokens kept in an element's signature. @default 3 */
  maxClassTokens: z.number().int().min(0).max(8).default(3),
  /** Fewest occurrences of a layout pattern on a page for it to count. @default 2 */
  minRepeat: z.number().int().min(1).max(100).default(2),
  /** ℓ applied to layout counts before distances: `log` ln(1 + n), `raw` n. @default 'log' */
  countScale: z.enum(['log', 'raw']).default('log'),
  /** Least mean silhouette of a layout clustering; below it, one layout. @default 0.25 */
  minSilhouette: z.number().min(-1).max(1).default(0.25),
  /** Most layout clusters a candidate cut may leave. @default 50 */
  maxLayouts: z.number().int().min(2).max(1000).default(50),
  /** Largest Hamming distance between SimHashes of repeated content (as src/dedup). @default 3 */
  maxHamming: z.number().int().min(0).max(16).default(3),
  /** Share of pages on which a text line or a link is the site's template. @default 0.5 */
  templateShare: z.number().gt(0).max(1).default(0.5),
  /** Share of a pattern's pages repeating another pattern's that makes the two a pair. @default 0.5 */
  minDupShare: z.number().gt(0).max(1).default(0.5),
  /** Distinct content, in average pages, that makes a cluster informative. @default 2 */
  minContentPages: z.number().min(0).default(2),
  /** Least share of the sample's distinct content that makes a cluster informative. @default 0.01 */
  minShare: z.number().min(0).max(1).default(0.01),
  /** Median links to valid clusters above it that make a cluster a list. @default 3 */
  minListLinks: z.number().int().min(1).default(3),
  /** Example URLs kept per cluster. @default 3 */
  examples: z.number().int().min(0).max(100).default(3),
  /** The time written as `learnedAt`. @default now */
  now: z.date().optional(),
});

export type LearnOptions = z.input<typeof learnOptionsSchema>;
export type ResolvedLearnOptions = z.output<typeof learnOptionsSchema>;

/** Validates options; a bad or unknown one throws InvalidOptionError naming it. */
export function resolveLearnOptions(options: LearnOptions | undefined): ResolvedLearnOptions {
  const r = learnOptionsSchema.safeParse(options ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  let field = issue?.path.join('.') || '(options)';
  if (issue?.code === 'unrecognized_keys') field = issue.keys.join(', ');
  throw new InvalidOptionError(`learnSiteModel: option ${field}: ${issue?.message}`, {
    cause: r.error,
  });
}
