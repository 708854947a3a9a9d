import { urlWords } from '../../url/index.js';
import {
  keptOrSeed,
  type LinkStrategy,
  type LinkText,
  type ParentInfo,
  type StrategyOptions,
  type TextScorer,
} from '../strategy.js';

/** Weight of the page's standing in a best-first priority; the link's evidence has the rest. */
export const STANDING_WEIGHT = 0.65;

/**
 * A link's evidence about its target, in [0, 1]: the topic's score of its anchor
 * with its URL's words (`urlWords`), or half the score of the words around it when
 * that is higher. The context counts half and never adds to the anchor: in menus
 * and tables of contents it belongs to the neighbouring entries.
 */
export function linkEvidence(text: LinkText, score: TextScorer): number {
  const own = score(`${text.anchor} ${urlWords(text.url)}`);
  return text.context ? Math.max(own, 0.5 * score(text.context)) : own;
}

/**
 * The standing of the page a link was found on, in [0, 1]: a kept page stands in
 * [½, 1] by its relevance, a discarded one in [0, ½) by its relevance over the
 * threshold (an irrelevant seed likewise). Kept pages' links go first, and among
 * pages on either side of the threshold the more relevant page's links go first.
 */
export function pageStanding(parent: ParentInfo): number {
  if (parent.kept) return 0.5 + 0.5 * Math.min(1, parent.relevance);
  return 0.5 * Math.min(1, parent.relevance / Math.max(parent.threshold, 1e-9));
}

/** Links on a page beyond which each of them says less of its target. */
export const CROWD_LINKS = 100;

/** How crowded a page of `links` links is: tenfolds beyond `CROWD_LINKS`, 0 below. */
export function crowding(links: number): number {
  return links > CROWD_LINKS ? Math.log10(links / CROWD_LINKS) : 0;
}

/** What best-first takes off a link's priority (StrategyOptions' `depthCost`, `crowdCost`). */
export interface PriorityCosts {
  /** Per link of depth of the page the link was found on. */
  depthCost: number;
  /** Per tenfold of links beyond `CROWD_LINKS` on that page (`crowding`). */
  crowdCost: number;
}

const NO_COSTS: PriorityCosts = { depthCost: 0, crowdCost: 0 };

/**
 * Best-first priority from the page's standing and a link's evidence, less the costs
 * of the page's depth and crowding (never below 0): among links of about the same
 * standing and evidence, those of shallower and less crowded pages go first.
 */
export function standingPriority(
  parent: ParentInfo,
  evidence: number,
  costs: PriorityCosts = NO_COSTS,
): number {
  const p = STANDING_WEIGHT * pageStanding(parent) + (1 - STANDING_WEIGHT) * evidence;
  const cost = costs.depthCost * parent.depth + costs.crowdCost * crowding(parent.links);
  return Math.max(0, p - cost);
}

/** Best-first priority of a link: its page's standing and its own evidence, less the costs. */
export function bestFirstPriority(
  parent: ParentInfo,
  text: LinkText,
  score: TextScorer,
  costs: PriorityCosts = NO_COSTS,
): number {
  return standingPriority(parent, linkEvidence(text, score), costs);
}

/**
 * The evidence a judged page lends the links `distance` places from its own link
 * on the page that linked it: its relevance, decayed by `decay` per place beyond
 * the first. Entries next to each other in a table of contents or a menu tend to
 * share a subject, whatever their anchors say.
 */
export function siblingEvidence(relevance: number, distance: number, decay: number): number {
  return Math.min(1, Math.max(0, relevance)) * decay ** (distance - 1);
}

/**
 * Best-first (the default). Kept pages' and seeds' links are followed; so are the
 * links of discarded pages while the path has crossed at most `exploreSteps`
 * discarded pages in a row (the URL's value counts them), ranked by the same
 * priority, which puts them behind comparable links of kept pages. Home pages and
 * tables of contents that score below the threshold thus still lead on, and a
 * crawl does not starve; `exploreSteps: 0` is DESIGN 1.1's strict gate. With
 * `siblingWindow` > 0, a judged page raises the evidence of the links up to that
 * many places from its own on the page that linked it (`siblingEvidence`). Priorities
 * pay `depthCost` per link of the page's depth and `crowdCost` per tenfold of its
 * links beyond 100 (`standingPriority`).
 */
export function bestFirst(o: StrategyOptions): LinkStrategy {
  const costs: PriorityCosts = { depthCost: o.depthCost, crowdCost: o.crowdCost };
  return {
    name: 'best-first',
    seedValue: 0,
    follows: (p) => keptOrSeed(p) || p.value < o.exploreSteps,
    link: (p, text, score) => {
      const evidence = linkEvidence(text, score);
      return {
        priority: standingPriority(p, evidence, costs),
        value: keptOrSeed(p) ? 0 : p.value + 1,
        evidence,
      };
    },
    ...(o.siblingWindow > 0
      ? {
          siblings: {
            window: o.siblingWindow,
            lend: (relevance, distance) => siblingEvidence(relevance, distance, o.siblingDecay),
            priority: (parent, evidence) => standingPriority(parent, evidence, costs),
          },
        }
      : {}),
  };
}
