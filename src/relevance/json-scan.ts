/**
 * A small JSON syntax scanner used to explain bad topic files: it finds the offset of
 * the first syntax error (V8's `JSON.parse` messages do not always give one) and
 * the keys that occur twice in one object (`JSON.parse` silently keeps the last).
 */

export interface JsonScan {
  /** Offset of the first syntax error, or -1 when the text is valid JSON. */
  errorAt: number;
  /** Keys repeated within one object, with the offset of the repetition. */
  duplicates: { path: (string | number)[]; key: string; at: number }[];
}

class Fail {
  constructor(readonly at: number) {}
}

export function scanJson(text: string): JsonScan {
  const duplicates: JsonScan['duplicates'] = [];
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const expect = (ch: string) => {
    if (text[i] !== ch) throw new Fail(i);
    i++;
  };
  const string = (): string => {
    const start = i;
    expect('"');
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return JSON.parse(text.slice(start, i)) as string;
      }
      if (c < 32) throw new Fail(i);
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Fail(i);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new Fail(i);
      } else i++;
    }
    throw new Fail(n);
  };
  const numberRe = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (path: (string | number)[]): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const at = i;
        const key = string();
        if (seen.has(key)) duplicates.push({ path, key, at });
        seen.add(key);
        ws();
        expect(':');
        value([...path, key]);
        ws();
        if (text[i] !== ',') {
          expect('}');
          return;
        }
        i++;
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let k = 0; ; k++) {
        value([...path, k]);
        ws();
        if (text[i] !== ',') {
          expect(']');
          return;
        }
        i++;
      }
    }
    if (c === '"') {
      string();
      return;
    }
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    }
    numberRe.lastIndex = i;
    if (numberRe.test(text)) {
      i = numberRe.lastIndex;
      return;
    }
    throw new Fail(i);
  };
  try {
    value([]);
    ws();
    if (i < n) throw new Fail(i);
    return { errorAt: -1, duplicates };
  } catch (e) {
    if (e instanceof Fail) return { errorAt: e.at, duplicates };
    throw e;
  }
}

/** 1-based line and column (in UTF-16 code units) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Where and what a JSON syntax error is: `JSON.parse`'s message without its position, and the line and column. */
export function jsonSyntaxError(
  text: string,
  cause: unknown,
): { line: number; column: number; what: string } {
  const at = scanJson(text).errorAt;
  const { line, column } = lineColumn(text, at < 0 ? text.length : at);
  const what = String((cause as Error).message)
    .replace(/ (?:in JSON )?at position \d+.*$/s, '')
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
  return { line, column, what };
}
