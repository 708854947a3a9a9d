/**
 * The value at `path` inside `data` (an object's keys, an array's indexes), as a
 * schema issue's path names it; undefined when the path leaves the objects. Pure.
 */
export function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}
