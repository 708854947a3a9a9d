// Public surface of the page pipeline: one judgement of a fetched page for every command.
export {
  type AnalyzedResponse,
  analyzeResponse,
  bodyText,
  type JudgedPage,
  judgePage,
  type PageJudge,
} from './judge.js';
