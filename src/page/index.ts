// Public surface of the page pipeline: one judgement of a fetched page for every command.
export { type JudgedPage, judgePage, type PageJudge } from './judge.js';
