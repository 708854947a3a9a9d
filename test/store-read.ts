// Reading a store in tests: open it read-only for one callback, and drain iterators.
import { openStore, type Store } from '../src/store/index.js';

/** Opens the store at `dir` read-only, runs `fn` on it, and closes it. */
export async function inStore<T>(dir: string, fn: (s: Store) => Promise<T>): Promise<T> {
  const s = await openStore(dir, { readonly: true });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Every item of an async iterable, in order. */
export async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
