/** Options of parseHtml / createHtmlParser, validated where they enter. */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';

export const parseOptionsSchema = z.strictObject({
  /**
   * Characters of visible text taken on each side of a link's anchor for its
   * context (within the link's nearest block: p, li, td, div …). 0: the anchor only.
   * @default 80
   */
  contextChars: z.number().int().min(0).max(10_000).default(80),
  /**
   * Most links returned; parsing stops early once both this and `maxTextChars`
   * are reached.
   * @default 2000
   */
  maxLinks: z.number().int().min(0).default(2000),
  /**
   * Most characters of visible text returned.
   * @default 500_000
   */
  maxTextChars: z.number().int().min(0).default(500_000),
  /**
   * Most characters of one anchor text (longer anchors are cut).
   * @default 200
   */
  maxAnchorChars: z.number().int().min(1).default(200),
  /**
   * X-Robots-Tag response header value(s); their directives join the page's own.
   * @default undefined
   */
  xRobotsTag: z.union([z.string(), z.array(z.string())]).optional(),
  /**
   * Crawler name whose `<meta name=...>` and `X-Robots-Tag: name: ...` directives
   * apply, beside the generic `robots`.
   * @default 'focuscrawl'
   */
  robotsToken: z.string().min(1).default('focuscrawl'),
  /**
   * HTML tokeniser of parseHtml (and analyzeBody): `fast`, the project's own
   * whole-document scanner, or `htmlparser2`. Both give the same pages, malformed HTML
   * included (scanner.ts names the one known difference). createHtmlParser streams
   * through htmlparser2 whatever this says.
   * @default 'fast'
   */
  engine: z.enum(['fast', 'htmlparser2']).default('fast'),
});

export type ParseOptions = z.input<typeof parseOptionsSchema>;
export type ResolvedParseOptions = z.output<typeof parseOptionsSchema>;

const DEFAULTS: ResolvedParseOptions = parseOptionsSchema.parse({});
const cache = new WeakMap<ParseOptions, ResolvedParseOptions>();

/** Validates options (once per options object); throws InvalidOptionError naming the option. */
export function resolveParseOptions(opts: ParseOptions | undefined): ResolvedParseOptions {
  if (opts === undefined) return DEFAULTS;
  let r = cache.get(opts);
  if (r !== undefined) return r;
  const p = parseOptionsSchema.safeParse(opts);
  if (!p.success) {
    const issue = p.error.issues[0];
    const where = issue?.path.join('.') || '(options)';
    throw new InvalidOptionError(`parseHtml: option ${where}: ${issue?.message ?? 'invalid'}`, {
      cause: p.error,
    });
  }
  r = p.data;
  cache.set(opts, r);
  return r;
}
