/** Checks of the revisit path's input: every store runs them before changing anything. */
import { checkLeaseId } from './lease.js';
import type { ClaimDueOptions, RevisitSchedule, VisitOutcome } from './revisit-types.js';
import { VISIT_CHANGES } from './revisit-types.js';
import { checkNewUrls } from './validate.js';
import {
  checkArray,
  checkFinite,
  checkInt,
  checkOptString,
  checkUrl,
  fail,
  show,
} from './validate-basics.js';

function checkOptTime(where: string, v: unknown): void {
  if (v !== null && v !== undefined) checkFinite(where, v);
}

function checkRate(where: string, v: unknown): void {
  if (v === null || v === undefined) return;
  checkFinite(where, v);
  if ((v as number) < 0) fail(where, `expected a rate ≥ 0 (changes per day), got ${v}`);
}

export function checkSchedules(where: string, items: unknown): asserts items is RevisitSchedule[] {
  checkArray(where, items);
  items.forEach((it, i) => {
    const w = `${where}[${i}]`;
    if (typeof it !== 'object' || it === null) fail(w, `expected an object, got ${show(it)}`);
    const s = it as Partial<RevisitSchedule>;
    checkUrl(`${w}.url`, s.url);
    if (s.dueAt === undefined) fail(`${w}.dueAt`, 'expected a time (ms) or null, got undefined');
    checkOptTime(`${w}.dueAt`, s.dueAt);
    checkRate(`${w}.rate`, s.rate);
  });
}

/** Checks `claimDue`'s arguments; returns the time it claims at and the lease. */
export function checkClaimDue(
  n: unknown,
  options: ClaimDueOptions | undefined,
): { now: number; lease: number | undefined } {
  checkInt('claimDue(n)', n, 1);
  const now = options?.now ?? Date.now();
  checkFinite('claimDue options.now', now);
  const lease = options?.lease;
  if (lease !== undefined) checkLeaseId('claimDue options.lease', lease);
  return { now, lease };
}

export function checkVisits(where: string, visits: unknown): asserts visits is VisitOutcome[] {
  checkArray(where, visits);
  const seen = new Set<string>();
  visits.forEach((it, i) => {
    const w = `${where}[${i}]`;
    if (typeof it !== 'object' || it === null) fail(w, `expected an object, got ${show(it)}`);
    const o = it as Partial<VisitOutcome>;
    checkUrl(`${w}.url`, o.url);
    if (seen.has(o.url)) fail(`${w}.url`, `${o.url} is given twice`);
    seen.add(o.url);
    checkFinite(`${w}.at`, o.at);
    if (!VISIT_CHANGES.includes(o.change as never))
      fail(`${w}.change`, `expected one of ${VISIT_CHANGES.join(', ')}, got ${show(o.change)}`);
    if (o.status !== null) checkInt(`${w}.status`, o.status, 100);
    if (o.status === null && o.change !== 'failed')
      fail(`${w}.status`, `a ${o.change} visit has a status`);
    for (const k of ['etag', 'lastModified', 'contentHash', 'textHash', 'error'] as const)
      checkOptString(`${w}.${k}`, o[k]);
    if (typeof o.textHash === 'string' && !/^[0-9a-f]{16}$/.test(o.textHash))
      fail(`${w}.textHash`, `expected 16 hex digits, got ${show(o.textHash)}`);
    checkOptTime(`${w}.lastModifiedMs`, o.lastModifiedMs);
    checkRate(`${w}.rate`, o.rate);
    if (o.dueAt === undefined) fail(`${w}.dueAt`, 'expected a time (ms) or null, got undefined');
    checkOptTime(`${w}.dueAt`, o.dueAt);
    if (o.newUrls !== undefined) checkNewUrls(`${w}.newUrls`, o.newUrls);
    if (o.page !== undefined) {
      if (o.change !== 'changed') fail(`${w}.page`, `only a changed visit carries a page`);
      checkInt(`${w}.page.status`, o.page.status, 100);
      checkInt(`${w}.page.bytes`, o.page.bytes, 0);
      checkFinite(`${w}.page.relevance`, o.page.relevance);
      checkOptString(`${w}.page.title`, o.page.title);
      checkOptString(`${w}.page.contentType`, o.page.contentType);
      if (o.page.keepVersion !== undefined && typeof o.page.keepVersion !== 'boolean')
        fail(`${w}.page.keepVersion`, `expected a boolean, got ${show(o.page.keepVersion)}`);
      if (o.page.body !== undefined && !(o.page.body instanceof Uint8Array))
        fail(`${w}.page.body`, `expected a Buffer, got ${show(o.page.body)}`);
    }
  });
}
