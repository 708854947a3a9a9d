/**
 * `commit` on the SQLite store: the outcomes whose claims the lease holds (all of
 * them without a lease) are checked, their bodies written (a page reached through
 * a redirect staged, placed only if the transaction keeps it), then recorded in
 * one transaction, which checks the claims again: another handle may have taken
 * one back meanwhile. Refused outcomes are listed, never thrown.
 */
import type { BodyFiles } from './bodies.js';
import type { SqliteLeases } from './sqlite-leases.js';
import { applyOutcomes, checkProcessing, type UrlIndex, type WrittenBody } from './sqlite-urls.js';
import type { Tally } from './tally.js';
import type { CommitResult } from './types.js';
import type { EncodedOutcome } from './wire.js';

/** What a commit needs of the store. */
export interface CommitContext {
  /** Runs `fn`, turning driver errors into `StoreError`. */
  sync<T>(op: string, fn: () => T): T;
  /** The writable URL index (throws on a read-only store). */
  index(op: string): UrlIndex;
  /** A write transaction of a call already under way. */
  tx<T>(op: string, fn: (ix: UrlIndex, t: Tally) => T): T;
  bodies: BodyFiles;
  leases: SqliteLeases;
}

/** The outcomes whose claims `lease` holds; the others' URLs go to `refused`. */
function held(
  c: CommitContext,
  ix: UrlIndex,
  outcomes: readonly EncodedOutcome[],
  lease: number | undefined,
  refused: string[],
): readonly EncodedOutcome[] {
  if (lease === undefined) return outcomes;
  return outcomes.filter((o) => {
    const row = ix.find(o.url);
    if (row !== undefined && c.leases.holds(row.id, lease)) return true;
    refused.push(o.url);
    return false;
  });
}

export async function commitOutcomes(
  c: CommitContext,
  all: readonly EncodedOutcome[],
  lease: number | undefined,
): Promise<CommitResult> {
  const refused: string[] = [];
  // Refuse a bad batch before writing any body; the transaction checks again.
  const outcomes = c.sync('commit', () => {
    const ix = c.index('commit');
    const kept = held(c, ix, all, lease, refused);
    checkProcessing(ix, kept);
    return kept;
  });
  const bodies = new Map<string, WrittenBody>();
  const staged: string[] = [];
  try {
    await Promise.all(
      outcomes.map(async (o) => {
        if (o.state === 'error' || o.state === 'redirect' || o.result.body === undefined) return;
        const to = o.result.redirects?.at(-1)?.location;
        if (to === undefined) {
          bodies.set(o.url, await c.bodies.write(o.url, o.result.body));
          return;
        }
        // Reached through a redirect: placed only if the transaction keeps the page.
        const { name, md5, tmp } = await c.bodies.stage(to, o.result.body);
        staged.push(tmp);
        bodies.set(o.url, { name, md5, place: () => c.bodies.place(tmp, name) });
      }),
    );
    // Another handle may have taken a claim back meanwhile: refused too.
    c.tx('commit', (ix, t) => applyOutcomes(ix, t, held(c, ix, outcomes, lease, refused), bodies));
  } finally {
    for (const tmp of staged) c.bodies.unstage(tmp);
  }
  return { refused };
}
