/**
 * Link ordering strategies: how a newly found link's priority is computed from
 * the page it was found on and its own anchor/context. Pure. The store's frontier
 * claims the highest priority first, ties in discovery order, so a strategy only
 * has to say what a priority is.
 */

/** What a strategy knows about the page a link was found on. */
export interface ParentInfo {
  /** The page's relevance to the topic, in [0, 1]. */
  relevance: number;
  depth: number;
  /** The priority the page itself was claimed with. */
  priority: number;
}

export interface LinkStrategy {
  readonly name: string;
  /** Whether `priority` reads `contextRelevance` (scoring link contexts costs time). */
  readonly usesContext: boolean;
  /**
   * The priority of a link; any finite number, higher is fetched sooner.
   * @param contextRelevance relevance of the link's anchor and surrounding text, in [0, 1]
   *   (0 when `usesContext` is false)
   */
  priority(parent: ParentInfo, contextRelevance: number): number;
}

/**
 * Best-first: the mean of the parent page's relevance and the link's anchor/context
 * relevance (both in [0, 1]). A relevant page's links come before an irrelevant
 * seed's; among them, links whose anchor and surroundings speak of the topic first.
 */
export const bestFirst: LinkStrategy = {
  name: 'best-first',
  usesContext: true,
  priority: (parent, contextRelevance) => 0.5 * parent.relevance + 0.5 * contextRelevance,
};

/** Breadth-first: every link has the same priority, so discovery order decides (FIFO). */
export const breadthFirst: LinkStrategy = {
  name: 'bfs',
  usesContext: false,
  priority: () => 0,
};

const STRATEGIES: Record<string, LinkStrategy> = {
  'best-first': bestFirst,
  bfs: breadthFirst,
};

/** The strategy of that name; undefined for an unknown name. */
export function strategyByName(name: string): LinkStrategy | undefined {
  return Object.hasOwn(STRATEGIES, name) ? STRATEGIES[name] : undefined;
}

export const STRATEGY_NAMES: readonly string[] = Object.keys(STRATEGIES);
