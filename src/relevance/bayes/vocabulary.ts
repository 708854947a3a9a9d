/**
 * Which terms a link model keeps: those found in at least `minDocs` training examples,
 * the `maxTerms` most informative first. Informativeness is the information gain of
 * the term's presence about the class,
 *
 *     IG(t) = H(C) − P(t)·H(C | t) − P(¬t)·H(C | ¬t)
 *
 * (entropies in nats over the two classes). Ties go to the more frequent term, then
 * to the term that sorts first, so the same examples always give the same vocabulary.
 * Pure.
 */

export interface VocabularyOptions {
  /** Terms kept at most. @default 100 */
  readonly maxTerms?: number;
  /** A term must occur in at least this many examples (both classes together). @default 2 */
  readonly minDocs?: number;
}

export const DEFAULT_MAX_TERMS = 100;
export const DEFAULT_MIN_DOCS = 2;

/** −Σ p ln p over a two-class split of `n` examples, `a` of them in the first class. */
export function binaryEntropy(a: number, n: number): number {
  if (n <= 0 || a <= 0 || a >= n) return 0;
  const p = a / n;
  return -(p * Math.log(p) + (1 - p) * Math.log(1 - p));
}

/**
 * Information gain of a term found in `posDocs` of `pos` positive and `negDocs` of
 * `neg` negative examples.
 */
export function informationGain(
  posDocs: number,
  negDocs: number,
  pos: number,
  neg: number,
): number {
  const n = pos + neg;
  if (n === 0) return 0;
  const withT = posDocs + negDocs;
  const without = n - withT;
  return (
    binaryEntropy(pos, n) -
    (withT / n) * binaryEntropy(posDocs, withT) -
    (without / n) * binaryEntropy(pos - posDocs, without)
  );
}

function docCounts(examples: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const e of examples) for (const [t, n] of e) if (n > 0) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
}

/** The vocabulary (most informative first), from examples' term counts. */
export function selectVocabulary(
  positives: readonly ReadonlyMap<string, number>[],
  negatives: readonly ReadonlyMap<string, number>[],
  options: VocabularyOptions = {},
): string[] {
  const maxTerms = options.maxTerms ?? DEFAULT_MAX_TERMS;
  const minDocs = options.minDocs ?? DEFAULT_MIN_DOCS;
  const p = docCounts(positives);
  const q = docCounts(negatives);
  const scored: { term: string; gain: number; docs: number }[] = [];
  for (const term of new Set([...p.keys(), ...q.keys()])) {
    const a = p.get(term) ?? 0;
    const b = q.get(term) ?? 0;
    if (a + b < minDocs) continue;
    scored.push({
      term,
      gain: informationGain(a, b, positives.length, negatives.length),
      docs: a + b,
    });
  }
  scored.sort(
    (x, y) =>
      y.gain - x.gain || y.docs - x.docs || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0),
  );
  return scored.slice(0, maxTerms).map((s) => s.term);
}
