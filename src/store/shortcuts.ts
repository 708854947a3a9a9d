import type { FetchedPage, FetchFailure, Outcome } from './types.js';

/** complete / discard / fail as one-outcome commits: shared by every Store implementation. */
export abstract class OutcomeShortcuts {
  abstract commit(outcomes: readonly Outcome[]): Promise<void>;

  complete(url: string, result: FetchedPage): Promise<void> {
    return this.commit([{ url, state: 'complete', result }]);
  }

  discard(url: string, result: FetchedPage): Promise<void> {
    return this.commit([{ url, state: 'discard', result }]);
  }

  fail(url: string, failure: FetchFailure): Promise<void> {
    return this.commit([{ url, state: 'error', result: failure }]);
  }
}
