/**
 * Where things are in a rule file: the line and column of a key given its path, and the
 * path of the innermost key around an offset (to name the rule set and field of a syntax
 * error). Works on the `yaml` package's syntax tree, which also reads JSON.
 */
import { type Document, isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from 'yaml';

export type Path = readonly (string | number)[];

export interface Position {
  line: number;
  column: number;
}

/** `ruleSets[0].fields.salary.css`, quoting keys that are not plain names. */
export function formatPath(path: Path): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else {
      const part = /^[A-Za-z_$][\w$]*$/.test(p) ? p : JSON.stringify(p);
      out += out === '' ? part : `.${part}`;
    }
  }
  return out;
}

function keyOf(key: unknown): unknown {
  return isScalar(key) ? key.value : key;
}

/**
 * Line and column of the deepest part of `path` present in the document: the key of
 * the last map entry on the way (for an unknown key, the key itself), or the sequence
 * item. Undefined when not even the first step is there.
 */
export function positionOf(doc: Document, lines: LineCounter, path: Path): Position | undefined {
  let node: unknown = doc.contents;
  let at: number | undefined;
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => String(keyOf(p.key)) === String(step));
      if (pair === undefined) break;
      const k = pair.key as Node | null;
      at = k?.range?.[0] ?? at;
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step] as Node | undefined;
      if (item === undefined) break;
      at = item.range?.[0] ?? at;
      node = item;
    } else break;
  }
  if (at === undefined) return undefined;
  const p = lines.linePos(at);
  return { line: p.line, column: p.col };
}

function contains(node: unknown, offset: number): boolean {
  const r = (node as Node | null)?.range;
  return r !== undefined && r !== null && r[0] <= offset && offset <= r[1];
}

/** The path of the innermost map entry or sequence item whose extent holds `offset`. */
export function pathAt(doc: Document, offset: number): (string | number)[] {
  const path: (string | number)[] = [];
  let node: unknown = doc.contents;
  for (;;) {
    let next: unknown;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const k = pair.key as Node | null;
        const start = k?.range?.[0];
        const end = (pair.value as Node | null)?.range?.[1] ?? k?.range?.[1];
        if (start !== undefined && end !== undefined && start <= offset && offset <= end) {
          path.push(String(keyOf(pair.key)));
          next = pair.value;
          break;
        }
      }
    } else if (isSeq(node)) {
      const i = node.items.findIndex((item) => contains(item, offset));
      if (i >= 0) {
        path.push(i);
        next = node.items[i];
      }
    }
    if (next === undefined) return path;
    node = next;
  }
}
