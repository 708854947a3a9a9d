import type {
  CommitResult,
  FetchedPage,
  FetchFailure,
  LeaseOptions,
  Outcome,
  RedirectResult,
} from './types.js';

/** complete / discard / fail / redirect as one-outcome commits: shared by every Store implementation. */
export abstract class OutcomeShortcuts {
  abstract commit(outcomes: readonly Outcome[], options?: LeaseOptions): Promise<CommitResult>;

  async complete(url: string, result: FetchedPage): Promise<void> {
    await this.commit([{ url, state: 'complete', result }]);
  }

  async discard(url: string, result: FetchedPage): Promise<void> {
    await this.commit([{ url, state: 'discard', result }]);
  }

  async fail(url: string, failure: FetchFailure): Promise<void> {
    await this.commit([{ url, state: 'error', result: failure }]);
  }

  async redirect(url: string, result: RedirectResult): Promise<void> {
    await this.commit([{ url, state: 'redirect', result }]);
  }
}
