/** Response body → text, with the encoding found the way a browser finds it. */
import { z } from 'zod';
import { InvalidOptionError } from '../../errors/index.js';
import { charsetFromContentType } from './content-type.js';
import { decodeAs } from './decode.js';
import { detectCharset, isUtf8Lenient } from './detect.js';
import { type Charset, normalizeCharset } from './labels.js';
import { prescanMetaCharset } from './prescan.js';

const optionsSchema = z.strictObject({
  /**
   * Bytes searched for a `<meta charset>` (the HTML Standard says 1024; some pages
   * declare it later, after long scripts or comments).
   * @default 1024
   */
  prescanBytes: z.number().int().min(0).default(1024),
  /**
   * Guess the encoding of pages that declare none (see {@link detectCharset}).
   * @default true
   */
  detect: z.boolean().default(true),
  /**
   * Bytes the detector looks at, from the first non-ASCII byte.
   * @default 16384
   */
  detectBytes: z.number().int().min(64).default(16_384),
  /**
   * Least detector confidence (0–1) accepted; below it the default applies.
   * @default 0.2
   */
  minConfidence: z.number().min(0).max(1).default(0.2),
  /**
   * Encoding label used when nothing else decides and the bytes are not valid
   * UTF-8 (the HTML Standard's default for unknown locales is windows-1252; a crawl
   * of Chinese sites may prefer `gbk`).
   * @default 'windows-1252'
   */
  defaultCharset: z
    .string()
    .refine((s) => normalizeCharset(s) !== undefined, { message: 'unknown charset label' })
    .default('windows-1252'),
  /**
   * Decode as this encoding label, ignoring BOM, header, meta and detection
   * (e.g. a user's override for a site known to lie).
   * @default undefined
   */
  forceCharset: z
    .string()
    .refine((s) => normalizeCharset(s) !== undefined, { message: 'unknown charset label' })
    .optional(),
});

export type DecodeBodyOptions = z.input<typeof optionsSchema>;
type ResolvedOptions = z.output<typeof optionsSchema>;

/** Where the encoding came from. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'detected' | 'default' | 'forced';

export interface DecodedBody {
  text: string;
  /** WHATWG encoding name in lower case, e.g. `gbk`, `shift_jis`, `windows-1252`. */
  charset: Charset;
  source: CharsetSource;
  /** Detector confidence (0–1), present when `source` is `detected`. */
  confidence?: number;
}

const DEFAULTS: ResolvedOptions = optionsSchema.parse({});
const resolved = new WeakMap<DecodeBodyOptions, ResolvedOptions>();

function resolveOptions(opts: DecodeBodyOptions | undefined): ResolvedOptions {
  if (opts === undefined) return DEFAULTS;
  let r = resolved.get(opts);
  if (r !== undefined) return r;
  const p = optionsSchema.safeParse(opts);
  if (!p.success) {
    const issue = p.error.issues[0];
    const where = issue?.path.join('.') || '(options)';
    throw new InvalidOptionError(`decodeBody: option ${where}: ${issue?.message ?? 'invalid'}`, {
      cause: p.error,
    });
  }
  r = p.data;
  resolved.set(opts, r);
  return r;
}

function bomOf(b: Uint8Array): [Charset, number] | undefined {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return ['utf-8', 3];
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return ['utf-16be', 2];
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return ['utf-16le', 2];
  return undefined;
}

function usable(cs: Charset | undefined): cs is Charset {
  // 'replacement' (iso-2022-kr, hz-gb-2312 …) would decode the page to one U+FFFD;
  // a crawler learns more by going on to the next source.
  return cs !== undefined && cs !== 'replacement';
}

/**
 * Decodes a response body. The encoding is taken from, in order: a byte-order mark
 * (UTF-8, UTF-16LE/BE); the `charset` of the Content-Type header; a `<meta>`
 * declaration found by the HTML Standard's prescan of the first `prescanBytes`
 * (or an XML declaration); the statistical detector; finally UTF-8 when the bytes are
 * valid UTF-8, else `defaultCharset`. Labels are read per the WHATWG Encoding Standard
 * (`gb2312` → gbk, `iso-8859-1` → windows-1252, `sjis` → shift_jis).
 *
 * Throws `InvalidOptionError` for malformed options.
 * @example decodeBody(bytes, 'text/html; charset=gb2312') // { text, charset: 'gbk', source: 'header' }
 */
export function decodeBody(
  body: Uint8Array,
  contentTypeHeader: string | undefined,
  opts?: DecodeBodyOptions,
): DecodedBody {
  const o = resolveOptions(opts);
  if (o.forceCharset !== undefined) {
    const cs = normalizeCharset(o.forceCharset)!;
    const bom = bomOf(body);
    const skip = bom !== undefined && bom[0] === cs ? bom[1] : 0;
    return { text: decodeAs(body.subarray(skip), cs), charset: cs, source: 'forced' };
  }
  const bom = bomOf(body);
  if (bom !== undefined) {
    return { text: decodeAs(body.subarray(bom[1]), bom[0]), charset: bom[0], source: 'bom' };
  }
  const header = charsetFromContentType(contentTypeHeader);
  if (usable(header)) return { text: decodeAs(body, header), charset: header, source: 'header' };
  if (o.prescanBytes > 0) {
    const meta = prescanMetaCharset(body, o.prescanBytes);
    if (usable(meta)) return { text: decodeAs(body, meta), charset: meta, source: 'meta' };
  }
  if (o.detect) {
    const d = detectCharset(body, o.detectBytes);
    if (d !== undefined && d.confidence >= o.minConfidence) {
      return {
        text: decodeAs(body, d.charset),
        charset: d.charset,
        source: 'detected',
        confidence: d.confidence,
      };
    }
  }
  const cs: Charset = isUtf8Lenient(body) ? 'utf-8' : normalizeCharset(o.defaultCharset)!;
  return { text: decodeAs(body, cs), charset: cs, source: 'default' };
}
