/**
 * Deciding a URL with a site model. The URL is canonicalised; its host must be one of
 * the model's; of the patterns it matches, the most specific speaks (specificity in
 * pattern.ts; ties go to the pattern with more sample pages, then to the first in the
 * file). A content pattern takes its cluster's decision; a duplicate is invalid
 * whatever its cluster's. A URL that matches no pattern is `unknown`: the model has
 * not seen its kind, and the caller decides.
 */
import {
  canonicalizeUrl,
  matchTarget,
  parsePattern,
  patternRegex,
  specificity,
} from '../url/index.js';
import type { ClusterKind } from './informativeness.js';
import type { SiteModel } from './model.js';

export type Verdict = 'valid' | 'invalid' | 'unknown';

export interface UrlDecision {
  verdict: Verdict;
  /** The pattern that decided (absent for `unknown`). */
  pattern?: string;
  /** Its cluster's id. */
  cluster?: number;
  /** Its cluster's kind. */
  kind?: ClusterKind;
  /** Its role. */
  role?: 'content' | 'duplicate';
  /** Why, in words. */
  reason: string;
}

interface Compiled {
  re: RegExp;
  specificity: number;
  pages: number;
  order: number;
  pattern: string;
  role: 'content' | 'duplicate';
  duplicateOf: string | undefined;
  cluster: SiteModel['clusters'][number];
}

function compile(model: SiteModel): Compiled[] {
  const out: Compiled[] = [];
  for (const cluster of model.clusters) {
    for (const p of cluster.patterns) {
      const parsed = parsePattern(p.pattern);
      out.push({
        re: patternRegex(parsed),
        specificity: specificity(parsed),
        pages: p.pages,
        order: out.length,
        pattern: p.pattern,
        role: p.role,
        duplicateOf: p.duplicateOf,
        cluster,
      });
    }
  }
  // Most specific first, then more pages, then file order: the first match decides.
  return out.sort(
    (a, b) => b.specificity - a.specificity || b.pages - a.pages || a.order - b.order,
  );
}

/**
 * A function deciding URLs with `model` (patterns compiled once). The model must be
 * valid (parseSiteModel, learnSiteModel); edit it and make a new decider.
 */
export function createDecider(model: SiteModel): (url: string) => UrlDecision {
  const patterns = compile(model);
  const hosts = new Set(model.hosts);
  return (url: string): UrlDecision => {
    const canonical = canonicalizeUrl(url);
    if (canonical === null) return { verdict: 'unknown', reason: 'not an http(s) URL' };
    const host = new URL(canonical).host;
    if (!hosts.has(host)) {
      return {
        verdict: 'unknown',
        reason: `host ${host} is not one of the model's (${model.hosts.join(', ')})`,
      };
    }
    const target = matchTarget(canonical)!;
    const hit = patterns.find((p) => p.re.test(target));
    if (hit === undefined) return { verdict: 'unknown', reason: 'matches no pattern of the model' };
    const c = hit.cluster;
    const base = { pattern: hit.pattern, cluster: c.id, kind: c.kind, role: hit.role };
    if (hit.role === 'duplicate') {
      return {
        verdict: 'invalid',
        ...base,
        reason: `${hit.pattern} (cluster ${c.id}): a duplicate of ${hit.duplicateOf}`,
      };
    }
    return {
      verdict: c.decision,
      ...base,
      reason: `${hit.pattern}: content pattern of cluster ${c.id} (${c.kind}, ${c.decision})`,
    };
  };
}

const deciders = new WeakMap<SiteModel, (url: string) => UrlDecision>();

/**
 * Decides one URL: `valid` (follow it), `invalid` (a duplicate or a page without
 * content) or `unknown` (no pattern matches, or another host). Compiled deciders are
 * cached per model object: do not mutate a model after deciding with it (or use
 * {@link createDecider} again).
 */
export function decide(model: SiteModel, url: string): UrlDecision {
  let d = deciders.get(model);
  if (d === undefined) {
    d = createDecider(model);
    deciders.set(model, d);
  }
  return d(url);
}
