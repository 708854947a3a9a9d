/**
 * The store conformance suite: the contracts of `contracts.ts` as `node:test`
 * tests, one suite per contract. Every implementation runs them all:
 *
 * ```ts
 * storeConformance('sqlite', async () => { ... return { store, reopen, cleanup, dir }; });
 * ```
 *
 * `reopen` enables the persistence and recovery tests, `dir` the checks of body
 * files, `another` the tests of two handles on one database. An implementation of
 * some contracts only runs their suites (`CONTRACT_SUITES`).
 */
import { describe } from 'node:test';
import { browseConformance } from './conformance-browse.js';
import { claimBasicsConformance } from './conformance-claims.js';
import { contextConformance } from './conformance-context.js';
import { dataConformance } from './conformance-data.js';
import { fieldsConformance } from './conformance-fields.js';
import { frontierBasicsConformance } from './conformance-frontier.js';
import type { StoreFactory } from './conformance-kit.js';
import { leaseConformance } from './conformance-leases.js';
import { queueConformance } from './conformance-queues.js';
import { redirectStatsConformance } from './conformance-redirect-stats.js';
import { redirectConformance } from './conformance-redirects.js';
import { rescoreConformance } from './conformance-rescore.js';
import { retryConformance } from './conformance-retries.js';
import { revisitConformance } from './conformance-revisits.js';
import { rulesConformance } from './conformance-rules.js';
import { linkGraphConformance, runRecordsConformance } from './conformance-runs.js';
import { searchConformance } from './conformance-search.js';

export type { StoreFactory, StoreHarness } from './conformance-kit.js';

/** `Frontier`: queueing, raising, rescoring and trimming waiting URLs. */
export function frontierConformance(factory: StoreFactory): void {
  frontierBasicsConformance(factory);
  contextConformance(factory);
  rescoreConformance(factory);
}

/** `Claims`: claims, outcomes (redirects included), failed attempts, reclaim and recovery. */
export function claimsConformance(factory: StoreFactory): void {
  claimBasicsConformance(factory);
  retryConformance(factory);
  rulesConformance(factory);
  queueConformance(factory);
  redirectConformance(factory);
  redirectStatsConformance(factory);
}

/** `Records`: history, pages, bodies, URLs, statistics, persistence. */
export function recordsConformance(factory: StoreFactory): void {
  dataConformance(factory);
}

export {
  browseConformance,
  fieldsConformance,
  leaseConformance,
  linkGraphConformance,
  runRecordsConformance,
  searchConformance,
};

/** Each contract of `contracts.ts` and its suite. */
export const CONTRACT_SUITES: Readonly<Record<string, (factory: StoreFactory) => void>> = {
  Frontier: frontierConformance,
  Claims: claimsConformance,
  Leases: leaseConformance,
  Records: recordsConformance,
  LinkGraph: linkGraphConformance,
  SearchIndex: searchConformance,
  RunRecords: runRecordsConformance,
  Revisits: revisitConformance,
  ExtractedFields: fieldsConformance,
  Browse: browseConformance,
};

/** Every contract's suite, against the stores `factory` makes. */
export function storeConformance(name: string, factory: StoreFactory): void {
  describe(`Store conformance: ${name}`, () => {
    for (const [contract, suite] of Object.entries(CONTRACT_SUITES)) {
      describe(contract, () => suite(factory));
    }
  });
}
