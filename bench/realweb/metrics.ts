// Figures of one run, from the server's log in arrival order: fetches are the logged
// requests except /robots.txt, cut at the budget; a labelled page is reached when its
// file is first served with status 200.
import type { LogEntry } from './server.js';

export interface RunFigures {
  /** Fetches counted (at most the budget). */
  fetches: number;
  /** Fetches to reach 50% / 90% of the labelled pages; null when never reached. */
  to50: number | null;
  to90: number | null;
  /** Of the fetches to 50%, those to the topic's own site (the rest went to other hosts). */
  ownTo50: number | null;
  /** Distinct labelled pages first served within the first 100 / 500 fetches, over 100 / 500 (or over the fetches when fewer). */
  harvest100: number;
  harvest500: number;
  /** Labelled pages reached by the end. */
  reached: number;
  labelled: number;
  /** Status counts of the counted fetches, e.g. { "200": 2900, "404": 100 }. */
  statuses: Record<string, number>;
  /** Fetches per site (host) and robots.txt requests. */
  hosts: Record<string, number>;
  robots: number;
  /** Milliseconds from the first to the last counted fetch, and the longest pause between two requests. */
  ms: number;
  maxGapMs: number;
}

export function figures(
  log: readonly LogEntry[],
  labelled: ReadonlySet<string>,
  budget: number,
  ownHost = '',
): RunFigures {
  const all = log.filter((e) => e.counted);
  const fetched = all.slice(0, budget);
  const need50 = Math.ceil(labelled.size * 0.5);
  const need90 = Math.ceil(labelled.size * 0.9);
  const seen = new Set<string>();
  let to50: number | null = null;
  let to90: number | null = null;
  let ownTo50: number | null = null;
  let own = 0;
  let at100 = 0;
  let at500 = 0;
  const statuses: Record<string, number> = {};
  const hosts: Record<string, number> = {};
  fetched.forEach((e, i) => {
    statuses[e.status] = (statuses[e.status] ?? 0) + 1;
    hosts[e.host] = (hosts[e.host] ?? 0) + 1;
    if (e.host === ownHost) own++;
    if (e.status === 200 && e.file && labelled.has(e.file) && !seen.has(e.file)) {
      seen.add(e.file);
      if (to50 === null && seen.size >= need50) {
        to50 = i + 1;
        ownTo50 = own;
      }
      if (to90 === null && seen.size >= need90) to90 = i + 1;
    }
    if (i + 1 === 100) at100 = seen.size;
    if (i + 1 === 500) at500 = seen.size;
  });
  if (fetched.length < 100) at100 = seen.size;
  if (fetched.length < 500) at500 = seen.size;
  let maxGap = 0;
  for (let i = 1; i < fetched.length; i++)
    maxGap = Math.max(maxGap, fetched[i]!.t - fetched[i - 1]!.t);
  const first = fetched[0]?.t ?? 0;
  const last = fetched.at(-1)?.t ?? 0;
  return {
    fetches: fetched.length,
    to50,
    to90,
    ownTo50,
    harvest100: fetched.length === 0 ? 0 : at100 / Math.min(100, fetched.length),
    harvest500: fetched.length === 0 ? 0 : at500 / Math.min(500, fetched.length),
    reached: seen.size,
    labelled: labelled.size,
    statuses,
    hosts,
    robots: log.filter((e) => !e.counted).length,
    ms: Math.round(last - first),
    maxGapMs: Math.round(maxGap),
  };
}
