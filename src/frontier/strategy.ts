/**
 * The strategy interface (see docs/strategies.md): for every link of a fetched
 * page, whether it joins the frontier, its priority and the value it carries for
 * its own links. Strategies are pure. The store's frontier claims the highest
 * priority first, ties in discovery order, so a strategy only says what a
 * priority is; the value is kept with the URL in the store and handed back when
 * the URL is claimed (`ClaimedUrl.value`).
 */

/** What a strategy knows about the page a link was found on. */
export interface ParentInfo {
  /** The page's relevance to the topic, in [0, 1]. */
  relevance: number;
  /** Whether the page passed the threshold (it is kept). */
  kept: boolean;
  /** Whether the page is a seed (DESIGN 1.5 gives seeds the highest value). */
  isSeed: boolean;
  /** The keep/discard threshold in force. */
  threshold: number;
  depth: number;
  /** The priority the page was claimed with. */
  priority: number;
  /** The value the page was claimed with (for seeds: the strategy's `seedValue`). */
  value: number;
  /** How many links the page has (best-first: a crowded page says less of each). */
  links: number;
}

/** The text around one link, and the model that scores text. */
export interface LinkText {
  anchor: string;
  /** The words around the link (anchor included); may be ''. */
  context: string;
  /** The link's canonical URL (its words are evidence too: `urlWords`). */
  url: string;
}

/** Scores a piece of text against the topic, in [0, 1]. */
export type TextScorer = (text: string) => number;

export interface LinkScore {
  priority: number;
  value: number;
  /** The link's own evidence, for strategies whose links lend each other evidence (`siblings`). */
  evidence?: number;
}

/**
 * How a judged page lends evidence to its neighbours among the links of the page
 * that linked it (best-first): the crawl keeps the recent pages' links in page
 * order and, when a page is judged, re-sends the neighbours whose priority rises.
 */
export interface SiblingRule {
  /** Links up to this many places away on either side receive evidence. */
  readonly window: number;
  /** The evidence a page of this relevance lends a link `distance` places away. */
  lend(relevance: number, distance: number): number;
  /** The priority of a link of `parent` with this evidence. */
  priority(parent: ParentInfo, evidence: number): number;
}

export interface LinkStrategy {
  readonly name: string;
  /** The value seeds carry. */
  readonly seedValue: number;
  /**
   * Whether a link's priority is its score alone, so that waiting URLs may be re-scored
   * when the crawl's link scorer changes (online learning, PageRank recomputation).
   */
  readonly rescores?: boolean;
  /** Neighbouring links lend each other evidence (best-first); absent: they do not. */
  readonly siblings?: SiblingRule;
  /** Whether the links of this page join the frontier at all. */
  follows(parent: ParentInfo): boolean;
  /**
   * The priority (any finite number, higher is fetched sooner) and carried value of
   * one link of a followed page, or null to leave it out. `score` is called only
   * for what the strategy reads: scoring link text costs time.
   */
  link(parent: ParentInfo, text: LinkText, score: TextScorer): LinkScore | null;
}

/** Tunable constants of the strategies, with their defaults. */
export interface StrategyOptions {
  /** Fish/shark: how many irrelevant pages in a row a path may cross. @default 3 */
  width: number;
  /** Shark: decay δ of the inherited score. @default 0.5 */
  decay: number;
  /** Shark: weight β of the anchor against the context. @default 0.8 */
  anchorWeight: number;
  /** Shark: weight γ of the inherited score against the neighbourhood. @default 0.5 */
  inheritedWeight: number;
  /** Tunnel: seeds' Val (DESIGN 1.5: 100). @default 100 */
  seedVal: number;
  /** Tunnel: factor r applied to Val when a link's val is below the threshold. @default 0.5 */
  tunnelFactor: number;
  /** Tunnel: how many times r may apply along a path before links are dropped. @default 4 */
  tunnelSteps: number;
  /** Multi-queue: number of queues. @default 4 */
  queues: number;
  /** PageRank: fetched pages between two recomputations (DESIGN 1.5's buffer). @default 1000 */
  rankBufferPages: number;
  /** PageRank: damping d (DESIGN 1.1). @default 0.8 */
  damping: number;
  /**
   * Best-first: how many discarded pages in a row a path may cross; their links are
   * followed, after the links of kept pages. 0 is DESIGN 1.1's strict gate (a
   * discarded page's links are never followed). @default 2
   */
  exploreSteps: number;
  /**
   * Best-first: a judged page raises the evidence of the links up to this many places
   * from its own on the page that linked it; 0: off. @default 1
   */
  siblingWindow: number;
  /** Best-first: decay of that evidence per place beyond the first. @default 0.8 */
  siblingDecay: number;
  /** Best-first: priority a link loses per link of depth of the page it was found on. @default 0.005 */
  depthCost: number;
  /**
   * Best-first: priority a link loses per tenfold of links beyond `CROWD_LINKS` (100) on
   * the page it was found on. @default 0.04
   */
  crowdCost: number;
}

/** Kept pages and seeds: the pages whose links every strategy follows. */
export const keptOrSeed = (p: ParentInfo): boolean => p.kept || p.isSeed;
/** The text a link is scored on: its context, or its anchor when it has none. */
export const contextOf = (t: LinkText): string => t.context || t.anchor;
