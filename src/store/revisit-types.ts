/**
 * Types of the revisit path (`Revisits`, DESIGN 1.3): kept pages due again at a
 * time, claimed for a revisit, and the visit each revisit records.
 */

import type { CommitResult, NewUrl } from './types.js';

/** What a revisit found. */
export type VisitChange = 'unchanged' | 'changed' | 'gone' | 'failed';

export const VISIT_CHANGES: readonly VisitChange[] = ['unchanged', 'changed', 'gone', 'failed'];

/** Sets when a kept page is revisited next (`Revisits.scheduleRevisits`). */
export interface RevisitSchedule {
  url: string;
  /** When it is due, ms since the epoch; null: not revisited until scheduled again. */
  dueAt: number | null;
  /** Its estimated change rate λ̂ (changes per day), kept with it; unchanged when absent. */
  rate?: number | null;
}

/** A page claimed for a revisit (`Revisits.claimDue`). */
export interface DueRevisit {
  id: number;
  url: string;
  depth: number;
  dueAt: number;
  /** Validators of the stored copy: sent as `If-None-Match` / `If-Modified-Since`. */
  etag: string | null;
  lastModified: string | null;
  /** Hashes of the stored copy: its body (md5) and its visible text. */
  contentHash: string | null;
  textHash: string | null;
  /** Revisits recorded so far (the first fetch not counted) and those that found a change. */
  visits: number;
  changes: number;
  /** When the page was last fetched or revisited with an answer, ms since the epoch. */
  lastVisitAt: number;
  rate: number | null;
}

/** The new copy of a page a revisit found changed: it replaces the stored one. */
export interface VisitPage {
  status: number;
  contentType: string | null;
  bytes: number;
  title: string | null;
  relevance: number;
  /** The body to store in place of the old one (when the store keeps bodies). */
  body?: Buffer;
  /** Keep this version's body too, beside the newest (`Revisits.readVersion`). @default false */
  keepVersion?: boolean;
}

/** One revisit's outcome (`Revisits.recordVisits`). */
export interface VisitOutcome {
  url: string;
  /** When the answer came, ms since the epoch. */
  at: number;
  /** The HTTP status (304 for a conditional request answered unchanged); null when the visit failed before a response. */
  status: number | null;
  change: VisitChange;
  /** Validators the answer carried (kept for the next revisit); absent: the old ones stay. */
  etag?: string | null;
  lastModified?: string | null;
  /** The answer's Last-Modified as ms since the epoch, for the change-rate estimate. */
  lastModifiedMs?: number | null;
  /** Hashes of what was received: the body (md5) and its visible text. */
  contentHash?: string | null;
  textHash?: string | null;
  /** For `changed`: the new copy. */
  page?: VisitPage;
  /** For `failed`: why. */
  error?: string;
  /** λ̂ after this visit (changes per day); absent: unchanged. */
  rate?: number | null;
  /** The next revisit, ms since the epoch; null: none. */
  dueAt: number | null;
  /**
   * URLs the visit found (the links of a changed page, a moved page's new place),
   * queued as for `addUrls` in the same transaction as the visit; `parent` defaults
   * to the visited page. A refused visit queues none.
   */
  newUrls?: readonly NewUrl[];
}

/** What `recordVisits` did. */
export interface RecordVisitsResult extends CommitResult {
  /** How many of the recorded visits' `newUrls` were new: queued (as `addUrls` counts them). */
  added: number;
}

/** A kept page's revisit record (`Revisits.revisits`). */
export interface RevisitRecord {
  url: string;
  visits: number;
  changes: number;
  lastVisitAt: number;
  /** When a revisit last found a change (its time, or the answer's Last-Modified when later known). */
  lastChangeAt: number | null;
  etag: string | null;
  lastModified: string | null;
  rate: number | null;
  dueAt: number | null;
  /** When a revisit found the page gone (404 / 410); null while it exists. */
  goneAt: number | null;
  /** Whether a revisit of it is claimed now. */
  claimed: boolean;
}

/** One recorded revisit (`Revisits.visits`). */
export interface VisitRecord {
  url: string;
  at: number;
  status: number | null;
  change: VisitChange;
  contentHash: string | null;
  textHash: string | null;
  lastModifiedMs: number | null;
  error: string | null;
  /** The kept body of this version (`VisitPage.keepVersion`), relative to the store; null when none. */
  bodyFile: string | null;
}

/** Options of `claimDue`. */
export interface ClaimDueOptions {
  /** Pages due at or before this time are claimed, ms since the epoch. @default Date.now() */
  now?: number;
  /** Claim under this lease (`Leases`). @default none */
  lease?: number;
}

/** Totals of the revisit path (`Revisits.revisitTotals`). */
export interface RevisitTotals {
  /** Kept pages with a revisit record, and those scheduled (due at a time). */
  tracked: number;
  scheduled: number;
  /** Scheduled pages due at or before `now`. */
  due: number;
  /** The earliest due time; null when none is scheduled. */
  nextDueAt: number | null;
  /** Revisits recorded, by what they found. */
  visits: Record<VisitChange, number>;
  gone: number;
}
