/** How many analysis threads a run starts (`parseThreads`). Pure. */

/** Most analysis threads `auto` starts: past this the crawl's own thread is the bound (BENCHMARKS.md). */
export const MAX_AUTO_PARSE_THREADS = 4;

/**
 * The analysis threads of `parseThreads` on a machine of `cores` cores: a number as
 * given; `auto`, the cores left once the crawl's thread and the store's have one each,
 * at most MAX_AUTO_PARSE_THREADS (none on 2 cores, where they would only take turns).
 */
export function parseThreadCount(parseThreads: number | 'auto', cores: number): number {
  if (parseThreads !== 'auto') return parseThreads;
  return Math.max(0, Math.min(MAX_AUTO_PARSE_THREADS, cores - 2));
}
