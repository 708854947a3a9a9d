import type { FetchedPage, FetchFailure, Outcome, RedirectResult } from './types.js';

/** complete / discard / fail / redirect as one-outcome commits: shared by every Store implementation. */
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

  redirect(url: string, result: RedirectResult): Promise<void> {
    return this.commit([{ url, state: 'redirect', result }]);
  }
}
