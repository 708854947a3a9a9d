/** Helpers shared by the parts of the store conformance suite. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { InvalidOptionError, LeaseLostError, StoreStateError } from '../errors/index.js';
import type { FetchedPage, Store } from './types.js';

/** What a conformance factory returns: a fresh, empty store. */
export interface StoreHarness {
  store: Store;
  /** Opens the same store again (after the test closed it); only for persistent stores. */
  reopen?: () => Promise<Store>;
  /** Removes everything the store left behind. */
  cleanup: () => Promise<void>;
  /** The store's directory, when bodies live in files under it. */
  dir?: string;
  /**
   * Opens a second handle on the same database while the first stays open (as a
   * second process would); the test closes it. Only for stores shared that way.
   */
  another?: () => Promise<Store>;
}

export type StoreFactory = () => Promise<StoreHarness>;

/** `it(title, fn)` with `fn` run on a fresh store of `factory` (`withStore`). */
export function storeTest(
  factory: StoreFactory,
): (title: string, fn: (h: StoreHarness) => Promise<void>) => void {
  return (title, fn) => it(title, () => withStore(factory, fn));
}

/** Runs `fn` on a fresh store, then closes and cleans up whatever happened. */
export async function withStore(
  factory: StoreFactory,
  fn: (h: StoreHarness) => Promise<void>,
): Promise<void> {
  const h = await factory();
  try {
    await fn(h);
  } finally {
    await h.store.close().catch(() => {});
    await h.cleanup();
  }
}

export const url = (i: number | string): string =>
  `http://h${typeof i === 'number' ? i % 3 : 0}.test/p/${i}`;

export function page(overrides: Partial<FetchedPage> = {}): FetchedPage {
  return { fetchedAt: 1_000, status: 200, bytes: 100, relevance: 0.5, ...overrides };
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Adds `urls` (priority 0.5 unless given) and claims them all. */
export async function addAndClaim(
  store: Store,
  urls: readonly string[],
  priority = 0.5,
): Promise<void> {
  await store.addUrls(urls.map((u) => ({ url: u, depth: 1, priority })));
  const got = await store.claim(urls.length + 1000);
  const want = new Set(urls);
  for (const c of got) {
    if (!want.has(c.url)) throw new Error(`addAndClaim: unexpected URL ${c.url} claimed`);
  }
}

/** assert.rejects validators. */
export const isState = (re: RegExp) => (e: unknown) => {
  assert.ok(e instanceof StoreStateError, `expected StoreStateError, got ${String(e)}`);
  assert.equal(e.code, 'FC_ERR_STORE_STATE');
  assert.match(e.message, re);
  return true;
};
export const isLeaseLost = (e: unknown) => {
  assert.ok(e instanceof LeaseLostError, `expected LeaseLostError, got ${String(e)}`);
  assert.equal(e.code, 'FC_ERR_LEASE_LOST');
  return true;
};
export const isInvalid = (re: RegExp) => (e: unknown) => {
  assert.ok(e instanceof InvalidOptionError, `expected InvalidOptionError, got ${String(e)}`);
  assert.match(e.message, re);
  return true;
};
