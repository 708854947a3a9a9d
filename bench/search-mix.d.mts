// Types of bench/search-mix.mjs for the TypeScript benchmarks.
import type { analyzeBody } from '../src/parse/index.js';
import type { Outcome } from '../src/store/index.js';
import type { listPageUrls, pageHtml } from '../src/testweb/index.js';

export declare const WEB: Parameters<typeof listPageUrls>[0];
export declare const QUERIES: Record<string, string[]>;

export interface FillPage {
  url: string;
  title: string | null;
  text: string;
}

export declare function pageAt(
  tools: { analyzeBody: typeof analyzeBody; pageHtml: typeof pageHtml },
  urls: readonly string[],
  i: number,
): FillPage;

export declare function outcomesOf(
  items: readonly FillPage[],
  first: number,
  fetchedAt: number,
  withText: boolean,
): Outcome[];
