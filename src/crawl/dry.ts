/**
 * What the crawl loop (engine.ts) does once the frontier is dry: nothing to claim,
 * nothing waiting to start, no claim under way. In order:
 * 1. outcomes on their way to the store may bring links: commit them, look again;
 * 2. with fetches still running, wait for them;
 * 3. sitemap URLs held for this moment are released (sitemap-feed.ts);
 * 4. failed attempts due soon are waited for (later ones are a later run's);
 * 5. URLs held for unreachable hosts: those never answered are given up now, the
 *    others waited for (their probes wake the loop);
 * 6. another run on the store still fetching may bring links: wait and look again;
 * 7. a run kept alive (watch/) looks again soon: revisits may bring URLs;
 * 8. otherwise the run ends, `failing` when no fetch of it was answered and URLs are
 *    left to be tried again, else `exhausted`.
 */
import type { Claimer } from './claimer.js';
import { KEEP_ALIVE_POLL_MS } from './engine-hooks.js';
import type { Healing } from './healing.js';
import type { HostReadiness } from './host-ready.js';
import type { CrawlLease } from './lease.js';
import type { Recorder } from './recorder.js';
import type { Settler } from './settle.js';
import type { Wakeup } from './signals.js';
import type { SitemapFeed } from './sitemap-feed.js';
import type { StopReason } from './types.js';

/** What the loop does next: look again at once, wait for a wake-up, or end. */
export type DryStep = 'again' | 'wait' | StopReason;

export interface DryParts {
  claimer: Claimer;
  rec: Recorder;
  sitemaps: SitemapFeed | null;
  heal: Healing;
  settle: Settler;
  ready: HostReadiness;
  wake: Wakeup;
  lease: CrawlLease;
  /** Fetches running. */
  active: number;
  flush: () => Promise<void>;
  /** A run kept alive goes on when the frontier is dry (watch/). */
  keepAlive: (() => boolean) | undefined;
}

export async function whenDry(p: DryParts): Promise<DryStep> {
  if (p.rec.pending > 0 || p.rec.committing) {
    await p.flush();
    return 'again';
  }
  if (p.active > 0) return 'wait';
  /** Sleeps until `at` (or an earlier wake-up), then looks at the frontier again. */
  const lookAgainAt = async (at: number): Promise<DryStep> => {
    if (at > Date.now()) {
      p.ready.wakeAt(at);
      await p.wake.wait();
    }
    p.claimer.dry = false;
    return 'again';
  };
  if (await p.sitemaps?.release()) {
    p.claimer.dry = false;
    return 'again';
  }
  const busy = p.sitemaps?.busy === true;
  const due = busy ? null : await p.heal.retryDue();
  if (due !== null) return lookAgainAt(due);
  if (busy) return 'wait';
  if (p.settle.held > 0) return p.settle.giveUp() > 0 ? 'again' : 'wait';
  if (p.keepAlive?.()) return lookAgainAt(Date.now() + KEEP_ALIVE_POLL_MS);
  if (await p.lease.othersAtWork(p.settle.deadHeld))
    return lookAgainAt(Date.now() + KEEP_ALIVE_POLL_MS);
  return (await p.heal.failedThrough(p.settle.deadHeld)) ? 'failing' : 'exhausted';
}
