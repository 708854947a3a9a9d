/**
 * Reading a rule file: JSON or YAML text → validated, compiled Rules. Every problem is an
 * ExtractRulesError naming the file, the line and column, the rule set, the field and
 * the path of the key at fault. The format is described in docs/extract.md.
 */
import { readFile } from 'node:fs/promises';
import { type Document, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { ExtractRulesError, type FocusCrawlError } from '../errors/index.js';
import { jsonSyntaxError, lineColumn, scanJson } from '../relevance/json-scan.js';
import { valueAt } from '../util/index.js';
import { compileRules } from './compile.js';
import { formatPath, type Path, type Position, pathAt, positionOf } from './locate.js';
import { rulesSchema } from './schema.js';
import type { Rules } from './types.js';

interface Source {
  file: string;
  data: unknown;
  /** The syntax tree (for positions); undefined when it could not be built. */
  doc: Document | undefined;
  lines: LineCounter;
}

/** `rule set "jobs", field "salary"` for a path under ruleSets[i].fields.salary. */
function context(data: unknown, path: Path): string {
  if (path[0] !== 'ruleSets' || typeof path[1] !== 'number') return '';
  const sets = (data as { ruleSets?: unknown } | null)?.ruleSets;
  const rs = Array.isArray(sets) ? (sets[path[1]] as { name?: unknown } | undefined) : undefined;
  const name =
    typeof rs?.name === 'string' && rs.name !== ''
      ? `rule set ${JSON.stringify(rs.name)}`
      : `rule set #${path[1] + 1}`;
  if (path[2] !== 'fields' || path[3] === undefined) return name;
  return `${name}, field ${JSON.stringify(String(path[3]))}`;
}

function where(file: string, pos: Position | undefined): string {
  return pos === undefined ? file : `${file}:${pos.line}:${pos.column}`;
}

/** The ExtractRulesError for the key at `path`. */
function problem(src: Source, path: Path, message: string, cause?: unknown): FocusCrawlError {
  const pos = src.doc === undefined ? undefined : positionOf(src.doc, src.lines, path);
  const ctx = context(src.data, path);
  const at = path.length > 0 ? ` (${formatPath(path)})` : '';
  return new ExtractRulesError(
    `${where(src.file, pos)}: ${ctx === '' ? '' : `${ctx}: `}${message}${at}`,
    cause === undefined ? {} : { cause },
  );
}

/** A syntax error at `offset`: names the rule set and field around it when the tree says. */
function syntaxProblem(
  file: string,
  text: string,
  doc: Document,
  offset: number,
  message: string,
  cause: unknown,
): FocusCrawlError {
  const { line, column } = lineColumn(text, offset);
  const ctx = context(doc.toJS(), pathAt(doc, offset));
  return new ExtractRulesError(
    `${file}:${line}:${column}: ${ctx === '' ? '' : `${ctx}: `}${message}`,
    { cause },
  );
}

function isJson(text: string, file: string): boolean {
  if (/\.json$/i.test(file)) return true;
  if (/\.ya?ml$/i.test(file)) return false;
  return text.trimStart().startsWith('{');
}

function read(text: string, file: string): Source {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (isJson(text, file)) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      const at = scanJson(text).errorAt;
      const { what } = jsonSyntaxError(text, e);
      throw syntaxProblem(
        file,
        text,
        doc,
        at < 0 ? text.length : at,
        `JSON syntax error: ${what}`,
        e,
      );
    }
    // JSON is YAML too: the tree gives positions (unless the text uses what YAML refuses).
    const src: Source = { file, data, doc: doc.errors.length === 0 ? doc : undefined, lines };
    const dup = scanJson(text).duplicates[0];
    if (dup !== undefined) {
      const { line, column } = lineColumn(text, dup.at);
      const ctx = context(data, [...dup.path, dup.key]);
      throw new ExtractRulesError(
        `${file}:${line}:${column}: ${ctx === '' ? '' : `${ctx}: `}key ${JSON.stringify(dup.key)} given twice (${formatPath([...dup.path, dup.key])})`,
      );
    }
    return src;
  }
  const err = doc.errors[0];
  if (err !== undefined) {
    const message = err.message.split('\n')[0] ?? err.message;
    throw syntaxProblem(file, text, doc, err.pos[0], `YAML syntax error: ${message}`, err);
  }
  return { file, data: doc.toJS(), doc, lines };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty list' : 'a list';
  if (typeof v === 'object') return 'an object';
  return JSON.stringify(v);
}

function schemaProblem(src: Source, error: z.ZodError): FocusCrawlError {
  const issue = error.issues[0]!;
  const path = issue.path.filter((p) => typeof p !== 'symbol') as (string | number)[];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] as string;
    const more =
      issue.keys.length > 1
        ? ` (and ${issue.keys
            .slice(1)
            .map((k) => `"${k}"`)
            .join(', ')})`
        : '';
    return problem(src, [...path, key], `unknown key ${JSON.stringify(key)}${more}`, error);
  }
  const value = valueAt(src.data, path);
  if (path.length === 0) {
    return problem(src, path, 'expected an object with "version" and "ruleSets"', error);
  }
  const detail =
    value === undefined
      ? `missing key ${JSON.stringify(String(path[path.length - 1]))}`
      : `${issue.message.replace(/^Invalid (?:input|option): /, '').replace(/, received \w+$/, '')}, got ${describe(value)}`;
  return problem(src, path, detail, error);
}

/**
 * Rules from the text of a rule file. `fileName` names the file in messages and picks
 * the syntax: `.json` is JSON, `.yaml`/`.yml` YAML, any other name JSON when the text
 * starts with `{`, else YAML. Throws ExtractRulesError.
 */
export function parseRules(text: string, fileName: string): Rules {
  const src = read(text, fileName);
  const parsed = rulesSchema.safeParse(src.data);
  if (!parsed.success) throw schemaProblem(src, parsed.error);
  return compileRules(parsed.data, fileName, (path, message) => {
    throw problem(src, path, message);
  });
}

/** Rules from a rule file (JSON or YAML, see parseRules). Throws ExtractRulesError. */
export async function loadRules(file: string): Promise<Rules> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ExtractRulesError(`${file}: cannot read the rule file: ${(e as Error).message}`, {
      cause: e,
    });
  }
  return parseRules(text.replace(/^\uFEFF/, ''), file);
}
