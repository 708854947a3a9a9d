/**
 * Claims from several frontier queues at once (the multi-queue strategy, DESIGN 1.2):
 * an equal share of `n` from each of `of` partitions, best first within each,
 * interleaved (the first of every queue, then the second of every queue…) so that
 * the queues are served in parallel. When some queues run short, the rest of `n`
 * comes from the whole frontier, so that a claim comes back empty only when the
 * frontier is. Never more than `n` in all.
 */
export type QueueClaim<T> = (n: number, queue?: { index: number; of: number }) => Promise<T[]>;

export async function claimFromQueues<T>(
  claim: QueueClaim<T>,
  n: number,
  of: number,
): Promise<T[]> {
  // The first n % of queues get one more, so that no more than n are claimed.
  const parts = await Promise.all(
    Array.from({ length: of }, (_, index) => {
      const share = Math.floor(n / of) + (index < n % of ? 1 : 0);
      return share > 0 ? claim(share, { index, of }) : Promise.resolve([] as T[]);
    }),
  );
  const out: T[] = [];
  for (let i = 0; out.length < n; i++) {
    let any = false;
    for (const part of parts) {
      const c = part[i];
      if (c !== undefined) {
        out.push(c);
        any = true;
      }
    }
    if (!any) break;
  }
  if (out.length < n) out.push(...(await claim(n - out.length)));
  return out;
}
