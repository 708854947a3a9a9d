/**
 * Features of a link context for the naive Bayes link classifier (DESIGN 1.4): the
 * improved TF-IDF
 *
 *     w_sp = (0.5 + 0.5 · tf_sp / max_{s' ∈ T_p} tf_s'p) · ln(|E| / df_s)
 *
 * tf_sp is the count of term s in context p, T_p the terms of p, |E| the number of
 * training examples (positive and negative) and df_s the number of them containing s.
 * Terms outside the vocabulary (absent from the df table) are dropped, and a term with
 * df 0 weighs 0. Pure: term counts in, weights out.
 */

/** Document frequencies: for each term, how many of `contexts` contain it (count > 0). */
export function contextDocumentFrequencies(
  contexts: readonly ReadonlyMap<string, number>[],
): Map<string, number> {
  const df = new Map<string, number>();
  for (const c of contexts) {
    for (const [t, n] of c) if (n > 0) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return df;
}

/**
 * One weight: (0.5 + 0.5 · tf / maxTf) · ln(examples / df). 0 when tf, df, maxTf or
 * examples is not positive.
 */
export function contextTermWeight(tf: number, maxTf: number, df: number, examples: number): number {
  if (!(tf > 0 && maxTf > 0 && df > 0 && examples > 0)) return 0;
  return (0.5 + (0.5 * tf) / maxTf) * Math.log(examples / df);
}

/**
 * The weights of one context's terms. `counts` are its term counts; the max tf is taken
 * over all of its terms (in the vocabulary or not, as T_p is the context's terms). Terms
 * not in `df` are left out; terms with df 0 get weight 0 and are left out too.
 */
export function contextWeights(
  counts: ReadonlyMap<string, number>,
  df: ReadonlyMap<string, number>,
  examples: number,
): Map<string, number> {
  let maxTf = 0;
  for (const n of counts.values()) if (n > maxTf) maxTf = n;
  const out = new Map<string, number>();
  for (const [t, tf] of counts) {
    const d = df.get(t);
    if (d === undefined) continue;
    const w = contextTermWeight(tf, maxTf, d, examples);
    if (w !== 0) out.set(t, w);
  }
  return out;
}
