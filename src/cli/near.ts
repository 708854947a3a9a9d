// "Did you mean …?": the nearest of some names to a mistyped one.

/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      let v = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = v;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The name of `names` nearest to `name`: the only one it is a prefix of, else the
 * closest within 2 edits (ties: the first); undefined when none is near.
 */
export function nearest(name: string, names: readonly string[]): string | undefined {
  const prefixed = names.filter((n) => n.startsWith(name));
  if (name.length >= 2 && prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestD = 3;
  for (const n of names) {
    const dist = editDistance(name, n);
    if (dist < bestD) {
      best = n;
      bestD = dist;
    }
  }
  return best;
}
