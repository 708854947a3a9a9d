// Work on the items of a stream ahead of the reader, results still in order.

/**
 * `fn` of each item of `items`, in the items' order, with up to `concurrency` calls
 * under way. A failure is thrown when its turn comes.
 */
export async function* ordered<T, U>(
  items: AsyncIterable<T>,
  fn: (item: T) => Promise<U>,
  concurrency: number,
): AsyncGenerator<U> {
  const ahead: Promise<U>[] = [];
  for await (const item of items) {
    const p = fn(item);
    // Awaited in turn below; this only keeps a failure that comes early from being unhandled.
    p.catch(() => {});
    ahead.push(p);
    if (ahead.length >= concurrency) yield await (ahead.shift() as Promise<U>);
  }
  while (ahead.length > 0) yield await (ahead.shift() as Promise<U>);
}
