/**
 * Requests per URL pattern: what a crawl spent its fetches on, by the site model's
 * patterns. Each URL fetched (one request each; a URL fetched twice counts twice) goes
 * to the pattern that decides it (`createDecider`): a URL on a host the model does not
 * name is off-site, one on its hosts that matches no pattern is unknown. The share on
 * valid patterns is over the requests on the model's hosts. Pure.
 */
import { canonicalizeUrl } from '../url/index.js';
import { createDecider } from './decide.js';
import type { ClusterKind } from './informativeness.js';
import type { SiteModel } from './model.js';

/** Requests a pattern of the model took. */
export interface PatternRequests {
  pattern: string;
  /** What the pattern decides: `valid` (followed) or `invalid` (refused). */
  verdict: 'valid' | 'invalid';
  /** Its cluster's kind. */
  kind: ClusterKind;
  /** Its role: a duplicate pattern is invalid whatever its cluster's kind. */
  role: 'content' | 'duplicate';
  /** Its cluster's id. */
  cluster: number;
  requests: number;
}

export interface RequestsByPattern {
  /** Requests on the model's hosts: valid + invalid + unknown. */
  total: number;
  /** Requests a valid pattern took. */
  valid: number;
  /** Requests on the model's hosts that matched no pattern. */
  unknown: number;
  /** Requests on hosts the model does not cover (or not http(s)); not in `total`. */
  offSite: number;
  /** valid / total; null when no request was on the model's hosts. */
  validShare: number | null;
  /** Patterns that took at least one request, most requests first (ties by pattern). */
  rows: PatternRequests[];
}

/** A running count: `add` each URL requested, `result` at the end. */
export interface RequestTally {
  add(url: string): void;
  result(): RequestsByPattern;
}

export function createRequestTally(model: SiteModel): RequestTally {
  const decide = createDecider(model);
  const hosts = new Set(model.hosts);
  const rows = new Map<string, PatternRequests>();
  let total = 0;
  let valid = 0;
  let unknown = 0;
  let offSite = 0;
  return {
    add(url: string): void {
      const canonical = canonicalizeUrl(url);
      if (canonical === null || !hosts.has(new URL(canonical).host)) {
        offSite++;
        return;
      }
      total++;
      const d = decide(canonical);
      if (d.verdict === 'unknown' || d.pattern === undefined || d.cluster === undefined) {
        unknown++;
        return;
      }
      if (d.verdict === 'valid') valid++;
      const key = `${d.cluster}\t${d.pattern}`;
      const row = rows.get(key);
      if (row !== undefined) row.requests++;
      else
        rows.set(key, {
          pattern: d.pattern,
          verdict: d.verdict,
          kind: d.kind!,
          role: d.role ?? 'content',
          cluster: d.cluster,
          requests: 1,
        });
    },
    result(): RequestsByPattern {
      const sorted = [...rows.values()]
        .map((r) => ({ ...r }))
        .sort(
          (a, b) =>
            b.requests - a.requests ||
            (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : a.cluster - b.cluster),
        );
      return {
        total,
        valid,
        unknown,
        offSite,
        validShare: total > 0 ? valid / total : null,
        rows: sorted,
      };
    },
  };
}

/** The requests of `urls` (one per URL given, repeats counted) by the pattern of `model` that decides each. */
export function requestsByPattern(model: SiteModel, urls: Iterable<string>): RequestsByPattern {
  const tally = createRequestTally(model);
  for (const url of urls) tally.add(url);
  return tally.result();
}
