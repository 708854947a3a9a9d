/** The memory store's side of failed attempts: when the next retry is due, and URLs in error put back. */
import { checkErrorFilter, errorMatches } from './error-filter.js';
import type { MemoryFrontier } from './memory-frontier.js';
import type { MemoryRecords } from './memory-records.js';
import type { MemoryTotals } from './memory-totals.js';
import type { ErrorFilter } from './types.js';

export interface MemoryRetryMethods {
  nextRetryAt(): Promise<number | null>;
  requeueErrors(filter?: ErrorFilter): Promise<number>;
}

export function memoryRetryMethods(p: {
  open: (op: string) => void;
  frontier: MemoryFrontier;
  records: MemoryRecords;
  totals: MemoryTotals;
}): MemoryRetryMethods {
  return {
    async nextRetryAt() {
      p.open('nextRetryAt');
      return p.frontier.nextRetryAt();
    },
    async requeueErrors(filter?: ErrorFilter) {
      p.open('requeueErrors');
      const f = checkErrorFilter('requeueErrors filter', filter);
      let n = 0;
      for (const rec of [...p.frontier.urls.values()]) {
        if (rec.state !== 'error') continue;
        const last = p.records.lastFailure(rec.url);
        if (!errorMatches(f, last?.error ?? null, last?.status ?? null)) continue;
        p.frontier.requeueError(rec);
        n++;
      }
      p.totals.move('error', 'waiting', n);
      return n;
    },
  };
}
