/**
 * What the link classifier reads of a link (DESIGN 1.4's link context, widened): the
 * anchor text, the words around the link (the parse stage's context window, anchor
 * included), the title of the page the link sits on, and the tokens of the target
 * URL itself. All go into one bag of terms; the improved TF-IDF (features.ts) turns
 * the counts into weights.
 *
 * Example pages are read the same way (`documentTermCounts`: title, text, URL), so a
 * model trained on pages scores link contexts in the same feature space: the improved
 * TF-IDF divides by the largest count, which makes a long page and a short context
 * comparable. Pure apart from the shared word segmenter.
 */
import { createTokenizer, type Tokenizer } from '../../text/index.js';
import { WEB_URL_WORDS } from '../../url/index.js';
import { TERM_TOKENIZE_OPTIONS } from '../tfidf.js';

/** What is known of a link when it is found. */
export interface LinkSight {
  /** The target URL. */
  readonly url: string;
  readonly anchor: string;
  /** The words around the link, anchor included (may be ''). */
  readonly context: string;
  /** Title of the page the link was found on (may be ''). */
  readonly title: string;
}

/** A document used as a training example. */
export interface DocumentSight {
  readonly title: string;
  readonly text: string;
  /** Its URL, when it has one (files have none). */
  readonly url?: string;
}

/** URL parts that say nothing about a topic. */
const URL_NOISE = new Set([...WEB_URL_WORDS, 'default']);

/** The topic learner's tokenizer: no numbers, no single characters, CJK singles glued. */
const tokenizer: Tokenizer = createTokenizer(TERM_TOKENIZE_OPTIONS);

/**
 * Tokens of a URL's host (its last label, the TLD, left out) and path (query and
 * fragment left out): split on everything that is not a letter or digit, lower-cased,
 * without pure numbers, one-letter parts and the noise of {@link URL_NOISE}.
 */
export function urlTokens(url: string): string[] {
  let s = url.toLowerCase();
  const q = s.search(/[?#]/);
  if (q >= 0) s = s.slice(0, q);
  const scheme = s.indexOf('://');
  if (scheme >= 0) s = s.slice(scheme + 3);
  const slash = s.indexOf('/');
  const authority = slash >= 0 ? s.slice(0, slash) : s;
  const path = slash >= 0 ? s.slice(slash) : '';
  const host = authority.replace(/:\d+$/, '').split('.').slice(0, -1).join('.');
  const out: string[] = [];
  for (const raw of `${host}/${path}`.split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || /^\d+$/.test(raw) || URL_NOISE.has(raw)) continue;
    out.push(raw);
  }
  return out;
}

function countInto(counts: Map<string, number>, tokens: readonly string[]): void {
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
}

/** Term counts of a link: context (or anchor), page title, URL tokens. */
export function linkTermCounts(
  link: LinkSight,
  tokenize: Tokenizer = tokenizer,
): Map<string, number> {
  const counts = new Map<string, number>();
  countInto(counts, tokenize(link.context || link.anchor));
  if (link.title) countInto(counts, tokenize(link.title));
  countInto(counts, urlTokens(link.url));
  return counts;
}

/** Term counts of an example document: title, text and (when it has one) URL tokens. */
export function documentTermCounts(
  doc: DocumentSight,
  tokenize: Tokenizer = tokenizer,
): Map<string, number> {
  const counts = new Map<string, number>();
  if (doc.title) countInto(counts, tokenize(doc.title));
  countInto(counts, tokenize(doc.text));
  if (doc.url !== undefined) countInto(counts, urlTokens(doc.url));
  return counts;
}
