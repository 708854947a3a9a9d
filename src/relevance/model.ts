/**
 * The interface every relevance model implements (keyword VSM now; TF-IDF and
 * naive Bayes later). A model is built once per crawl and scores many pages; it is
 * pure: no I/O, the same page always gets the same score.
 */

/** What a model looks at: a page's visible text and its title. */
export interface PageInput {
  text: string;
  /** The page's <title>; '' or absent when it has none. */
  title?: string;
  /** The page's URL (read by models that take URL tokens as features). */
  url?: string;
}

/** A model's verdict on a page; models add their own details. */
export interface RelevanceScore {
  /** In [0, 1]; compared with the crawl's threshold. */
  relevance: number;
}

export interface RelevanceModel<S extends RelevanceScore = RelevanceScore> {
  /** Short identifier, e.g. 'keyword-vsm'. */
  readonly name: string;
  score(page: PageInput): S;
  /** `score(page).relevance` without the details: what a crawl needs for every link. */
  relevance(page: PageInput): number;
}
